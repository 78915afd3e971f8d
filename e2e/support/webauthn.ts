import type { Page } from 'playwright-core';

/**
 * A platform authenticator with user verification in this page's Chromium, by the DevTools protocol
 * (WebAuthn.addVirtualAuthenticator): the device's screen lock always says yes. Its credentials live
 * as long as the page.
 */
export async function addVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
}
