import { useState } from 'react';
import { Button } from './button.tsx';
import { Checkbox } from './checkbox.tsx';

interface TermsAgreementProps {
  /** The submit button's text: the login's 同意する, the sign-up's 登録する. */
  submitLabel: string;
  pending: boolean;
  /** Called on submit once the agreement is ticked. */
  onSubmit: () => void;
}

/**
 * The required agreement under the term documents (SPEC.md section 2, "Terms agreement"): the
 * checkbox, and the submit button that stays disabled until it is ticked.
 */
export function TermsAgreement({ submitLabel, pending, onSubmit }: TermsAgreementProps) {
  const [agreed, setAgreed] = useState(false);
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (agreed) onSubmit();
      }}
    >
      <Checkbox id="agree" label="利用規約を確認、同意しました" hint="※チェック必須" checked={agreed} onChange={(e) => setAgreed(e.target.checked)} required />
      <Button type="submit" disabled={!agreed} pending={pending}>
        {submitLabel}
      </Button>
    </form>
  );
}
