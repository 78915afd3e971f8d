import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import styles from './modal.module.css';

interface ModalProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
}

/**
 * The shared modal (SPEC.md section 2): an overlay and a centred dialog, 90% wide, 40px/20px
 * padding. A native <dialog> shown with showModal(), so focus is trapped and Escape closes it.
 * `open` rules: when Escape closes the dialog and the parent keeps `open` (a prompt that is busy
 * ignores its onClose), the dialog is shown again.
 */
export function Modal({ open, title, onClose, children }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [closes, setCloses] = useState(0);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open, closes]);
  const closed = () => {
    onClose();
    setCloses((n) => n + 1);
  };
  return (
    <dialog ref={ref} className={styles.dialog} aria-labelledby={titleId} onClose={closed}>
      <h2 id={titleId} className={styles.title}>
        {title}
      </h2>
      {children}
    </dialog>
  );
}
