import type { ReactNode } from 'react';
import { Button } from './button.tsx';
import { Modal } from './modal.tsx';
import page from './page.module.css';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** The confirming button's words: the action's own, as on the button that opened the dialog. */
  confirmLabel: string;
  /** The action is running: the confirming button blocks repeated clicks, and there is no backing out. */
  pending: boolean;
  onConfirm: () => void;
  /** "キャンセル", Escape and closing the dialog. */
  onCancel: () => void;
  /** What the action will do, above the buttons. */
  children: ReactNode;
}

/**
 * The confirmation before an action that cannot be undone (the withdrawal, a card removal): the
 * shared modal (SPEC.md section 2) with what will happen, the action's button and "キャンセル".
 */
export function ConfirmDialog({ open, title, confirmLabel, pending, onConfirm, onCancel, children }: ConfirmDialogProps) {
  return (
    <Modal open={open} title={title} onClose={onCancel}>
      {children}
      <div className={page.actions}>
        <Button type="button" pending={pending} onClick={onConfirm}>
          {confirmLabel}
        </Button>
        <Button type="button" variant="secondary" disabled={pending} onClick={onCancel}>
          キャンセル
        </Button>
      </div>
    </Modal>
  );
}
