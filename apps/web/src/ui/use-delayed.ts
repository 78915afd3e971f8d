import { useEffect, useState } from 'react';

/** A value that shows only after it has been set for `ms` (errors 300 ms, loading text 100 ms). */
export function useDelayed<T>(value: T | undefined, ms: number): T | undefined {
  const [ready, setReady] = useState<T | undefined>(undefined);
  const active = value !== undefined && value !== false;
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => setReady(value), ms);
    return () => clearTimeout(timer);
  }, [active, value, ms]);
  return active && ready === value ? value : undefined;
}
