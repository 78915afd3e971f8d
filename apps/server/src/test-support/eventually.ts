/** Checks again every 50 ms until the check passes, for at most `ms`: a change reaches the other nodes by their poll. */
export async function eventually(check: () => Promise<void> | void, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      await check();
      return;
    } catch (e) {
      if (Date.now() > until) throw e;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
