import { describe, expect, it } from 'vitest';
import { serviceEntries } from './service-entries.ts';

const NET_ANSWER = { name: 'Net Answer', client_id: 'SIAP004' };
const LINE = { name: 'LINE公式アカウントサービス', client_id: 'SIAP002' };
const PORTAL = { name: 'ポータルアプリ', client_id: 'SIAP005' };

/** SPEC.md sections 2 and 6: Top shows the Net Answer link once, whatever the client the member came from. */
describe("Top's services", () => {
  it('shows a card member who used Net Answer (it is among their services) the Net Answer link once, as its own link', () => {
    expect(serviceEntries({ is_user_saison_card: true, service_links: [LINE, NET_ANSWER, PORTAL] })).toEqual({ netAnswer: true, services: [LINE, PORTAL] });
  });

  it('shows a card member who never used Net Answer the Net Answer link', () => {
    expect(serviceEntries({ is_user_saison_card: true, service_links: [] })).toEqual({ netAnswer: true, services: [] });
  });

  it('shows a member without a card no Net Answer link, even one who came from Net Answer', () => {
    expect(serviceEntries({ is_user_saison_card: false, service_links: [NET_ANSWER, PORTAL] })).toEqual({ netAnswer: false, services: [PORTAL] });
  });

  // SPEC.md section 6 (decision 0015): the line answer is for cardholders only and refuses a member without a card.
  it('offers a member without a card no cardholders-only service, though they used it when they held a card', () => {
    expect(serviceEntries({ is_user_saison_card: false, service_links: [LINE, PORTAL] })).toEqual({ netAnswer: false, services: [PORTAL] });
    expect(serviceEntries({ is_user_saison_card: true, service_links: [LINE, PORTAL] }).services).toEqual([LINE, PORTAL]);
  });

  it('lists each service once', () => {
    expect(serviceEntries({ is_user_saison_card: true, service_links: [LINE, LINE, PORTAL, PORTAL] }).services).toEqual([LINE, PORTAL]);
  });
});
