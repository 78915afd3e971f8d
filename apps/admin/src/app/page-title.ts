import { useEffect } from 'react';

/** The document title of a screen: `<screen> | 運用コンソール`. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} | メンバーID 運用コンソール`;
  }, [title]);
}
