import type { UseFormRegisterReturn } from 'react-hook-form';
import { toHalfWidth } from '@sso/contracts/fields';

/**
 * Input conversion on blur (SPEC.md section 5): full-width letters, digits and symbols become
 * half-width before the field is validated, so that "０９０" is checked as "090".
 */
export function halfWidthOnBlur<N extends string>(registration: UseFormRegisterReturn<N>): UseFormRegisterReturn<N> {
  return {
    ...registration,
    onBlur: (event) => {
      const target = event.target as HTMLInputElement;
      const converted = toHalfWidth(target.value);
      if (converted !== target.value) target.value = converted;
      return registration.onBlur(event);
    },
  };
}
