import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';

interface Labelled {
  id: string;
  label: string;
  hint?: string;
  error?: string;
}

/** What ties a control to its hint and error (aria-describedby, aria-invalid), and its name. */
const tiedTo = ({ id, hint, error }: Labelled) => ({
  id,
  name: id,
  'aria-invalid': error ? true : undefined,
  'aria-describedby': [hint ? `${id}-hint` : undefined, error ? `${id}-error` : undefined].filter(Boolean).join(' ') || undefined,
});

/** A control with its visible label (`<label for>`) and, when given, its hint and error. */
function Labelled({ id, label, hint, error, children }: Labelled & { children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <span id={`${id}-hint`} className="hint">
          {hint}
        </span>
      )}
      {children}
      {error && (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      )}
    </div>
  );
}

/** An input with its visible label and, when given, its hint and error, both tied to it by aria-describedby. */
export function Field({ id, label, hint, error, ...input }: Labelled & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Labelled id={id} label={label} hint={hint} error={error}>
      <input {...tiedTo({ id, label, hint, error })} {...input} />
    </Labelled>
  );
}

/** A textarea (three rows) with its visible label and, when given, its hint and error, as Field. */
export function TextAreaField({ id, label, hint, error, ...textarea }: Labelled & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <Labelled id={id} label={label} hint={hint} error={error}>
      <textarea {...tiedTo({ id, label, hint, error })} rows={3} {...textarea} />
    </Labelled>
  );
}

/** A checkbox with its visible label beside it (`<label for>`) and, when given, its hint. */
export function CheckField({ id, label, hint, ...input }: Omit<Labelled, 'error'> & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div className="field check">
      <div>
        <input type="checkbox" {...tiedTo({ id, label, hint })} {...input} /> <label htmlFor={id}>{label}</label>
      </div>
      {hint && (
        <span id={`${id}-hint`} className="hint">
          {hint}
        </span>
      )}
    </div>
  );
}

/** A message the screen reader reads as it appears. */
export function Alert({ children }: { children: ReactNode }) {
  return (
    <div className="alert" role="alert">
      {children}
    </div>
  );
}

export function Notice({ children }: { children: ReactNode }) {
  return (
    <div className="notice" role="status">
      {children}
    </div>
  );
}
