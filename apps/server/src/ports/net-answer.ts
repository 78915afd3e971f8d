/**
 * Net Answer port (decision 0006): the company's online card-account service. It checks a Net
 * Answer id and password (so that a card can be linked to its Net Answer account,
 * /api/subuser/na/add) and answers a one-time direct-login URL for a linked card
 * (/api/subuser/direct_login/na). The simulator (net-answer-simulator.ts) reads
 * config/demo-netanswer.json, listed in docs/demo.md.
 */
export interface NetAnswerAccount {
  naId: string;
  /** The cards (esids) the Net Answer account covers. */
  esids: string[];
}

export interface NetAnswer {
  /** The account with this id and password, or undefined when either is wrong (never which one). */
  verifyAccount(naId: string, password: string): Promise<NetAnswerAccount | undefined>;
  /** A one-time URL that logs the holder into Net Answer on the card's page (param1, param2: Net Answer's deep link). */
  directLoginUrl(p: { esid: string; naId: string; param1: string; param2: string }): Promise<string>;
}
