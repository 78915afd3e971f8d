/** Server result codes (SPEC.md section 8). 0 is success: the spec names only failure codes. */
export const RESULT = {
  OK: 0,
  CREDENTIALS: 200,
  LOCKED: 203,
  RECAPTCHA: 205,
  ACCESS_DENIED: 300,
  OUT_OF_SERVICE: 501,
  VALIDATION: 901,
  RETRYABLE: 902,
  INFO_GUIDE: 903,
  CHATBOT_GUIDE: 904,
  /** Client-side special error, used for network failures. */
  CLIENT_SPECIAL: 99999,
} as const;

export type ResultCode = (typeof RESULT)[keyof typeof RESULT];
