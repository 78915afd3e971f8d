import { useEffect, useState } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { isHouseCard } from '@sso/contracts/signup';
import { cardYearOptions, MONTH_OPTIONS } from './card-expiry.ts';
import { Field } from './field.tsx';
import { normaliseInput } from '../lib/input-normalise.ts';
import { Select } from './select.tsx';
import styles from './card-fields.module.css';

export type CardFieldName = 'cardnumber' | 'cc_month' | 'cc_year' | 'cvc';

interface CardFieldsProps {
  register: (name: CardFieldName) => UseFormRegisterReturn;
  errors: Partial<Record<CardFieldName, { message?: string | undefined }>>;
  /** The card number as typed so far. */
  cardNumber: string;
  /** Empties the security code and its error; stable (a useCallback). */
  clearCvc: () => void;
}

/**
 * A card's number, expiry month and year, and security code (SPEC.md sections 2 and 5), for the
 * card sign-up and the add by number. A house card (prefixes 02, 03) has no security code: the field
 * is hidden and its value cleared. The year offers 9 years from the current one.
 */
export function CardFields({ register, errors, cardNumber, clearCvc }: CardFieldsProps) {
  const [years] = useState(() => cardYearOptions());
  const houseCard = isHouseCard(normaliseInput('digits', cardNumber));
  useEffect(() => {
    if (houseCard) clearCvc();
  }, [houseCard, clearCvc]);
  return (
    <>
      <Field
        id="cardnumber"
        label="カード番号"
        hint="ハイフンを入れずに入力してください。"
        type="text"
        inputMode="numeric"
        autoComplete="cc-number"
        error={errors.cardnumber?.message}
        {...register('cardnumber')}
      />
      <div className={styles.expiry}>
        <Select
          id="cc_month"
          label="有効期限（月）"
          placeholder="--"
          options={MONTH_OPTIONS}
          autoComplete="cc-exp-month"
          error={errors.cc_month?.message}
          {...register('cc_month')}
        />
        <Select
          id="cc_year"
          label="有効期限（年）"
          placeholder="----"
          options={years}
          autoComplete="cc-exp-year"
          error={errors.cc_year?.message}
          {...register('cc_year')}
        />
      </div>
      {!houseCard && (
        <Field
          id="cvc"
          label="セキュリティコード"
          hint="カード裏面（一部のカードは表面）に印字されている3桁または4桁の数字です。"
          type="text"
          inputMode="numeric"
          autoComplete="cc-csc"
          error={errors.cvc?.message}
          {...register('cvc')}
        />
      )}
    </>
  );
}
