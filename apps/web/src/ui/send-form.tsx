import type { FormEventHandler, ReactNode } from 'react';
import { Alert } from './alert.tsx';
import { BackToTop } from './back-to-top.tsx';
import { Button } from './button.tsx';
import page from './page.module.css';

/**
 * A form whose one way on sends a code somewhere (the e-mail change, the login mobile number): its
 * fields, the page's message, and 「送信する」 beside the way back to Top (when the member came from Top).
 */
export function SendForm({ onSubmit, message, pending, children }: { onSubmit: FormEventHandler; message: string | undefined; pending: boolean; children: ReactNode }) {
  return (
    <form noValidate onSubmit={onSubmit}>
      {children}
      <Alert message={message} />
      <div className={page.actions}>
        <Button type="submit" pending={pending}>
          送信する
        </Button>
        <BackToTop />
      </div>
    </form>
  );
}
