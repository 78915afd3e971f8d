/** A time as a member in Japan reads it in a mail, e.g. 2026年11月28日 0:10 (Japan Standard Time). */
const FORMAT = new Intl.DateTimeFormat('ja-JP', { timeZone: 'Asia/Tokyo', dateStyle: 'long', timeStyle: 'short' });

export const japanTime = (epochMs: number): string => `${FORMAT.format(epochMs)}（日本時間）`;
