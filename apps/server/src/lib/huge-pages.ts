import { readFileSync } from 'node:fs';

/** Where Linux says whether it backs memory with transparent huge pages (the kernel's admin-guide/mm/transhuge). */
export const TRANSPARENT_HUGE_PAGES_FILE = '/sys/kernel/mm/transparent_hugepage/enabled';

/**
 * The kernel's transparent huge page mode, the bracketed word of `file` (`always [madvise] never`
 * reads `madvise`), or undefined where it cannot be read: not Linux, or a /sys the container hides.
 */
export function transparentHugePages(file = TRANSPARENT_HUGE_PAGES_FILE): string | undefined {
  try {
    return /\[([a-z_]+)\]/.exec(readFileSync(file, 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

/**
 * The start's warning when the host has turned transparent huge pages off (docs/operations.md,
 * "Sizing"). Each argon2id verification maps its 19 MiB afresh, and @node-rs/argon2's allocator asks
 * for huge pages for it (`madvise`); with `never` the kernel faults and zeroes it 4 KiB at a time,
 * and a verification costs about 1.4 times its CPU, a password login as much (docs/performance.md,
 * "The hash and the host's huge pages"). `always` and `madvise` both give it huge pages.
 */
export function hugePagesWarning(file = TRANSPARENT_HUGE_PAGES_FILE): string | undefined {
  if (transparentHugePages(file) !== 'never') return undefined;
  return `transparent huge pages are off (${file}: never): each argon2id password verification, and so each password login, costs about 1.4 times the CPU it costs with madvise or always (docs/operations.md, "Sizing")`;
}
