/**
 * The `passwordrules` attribute of new-password inputs (the WebKit password-rules syntax, which
 * Safari's and other managers' generators follow), stating the rules of SPEC.md section 5, so that a
 * generated password passes the form's check: card sign-up 8-16 characters, symbols - = @ _; open
 * sign-up, reset and password change 8-72, symbols - = @ _ ! # + *; both need a letter and a digit.
 * A leading "-" in a character class is the hyphen itself.
 */
export const PASSWORD_RULES = {
  card: 'minlength: 8; maxlength: 16; required: lower, upper; required: digit; allowed: [-=@_];',
  open: 'minlength: 8; maxlength: 72; required: lower, upper; required: digit; allowed: [-=@_!#+*];',
} as const;

declare module 'react' {
  // A merged declaration repeats the type parameter of React's own, used there.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface InputHTMLAttributes<T> {
    /** Not in the DOM typings: React passes it through as written. */
    passwordrules?: string | undefined;
  }
}
