import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PG_URL } from '@sso/server/test-support';
import { startWireCounter, type WireCounter } from './pg-wire-counter.ts';

/** The relay of bench/statements.ts counts what a real PostgreSQL server answered, statement by statement. */
describe('startWireCounter: statements and round trips on the wire', () => {
  let counter: WireCounter;
  let client: pg.Client;
  beforeAll(async () => {
    counter = await startWireCounter(TEST_PG_URL);
    client = new pg.Client({ connectionString: counter.url });
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
    await counter.close();
  });

  const counted = async (run: () => Promise<unknown>) => {
    counter.reset();
    await run();
    const { statements, roundTrips, sql } = counter.counts();
    return { statements, roundTrips, sql };
  };

  it('counts the connection apart, and a simple query as one statement in one round trip', async () => {
    const other = new pg.Client({ connectionString: counter.url });
    counter.reset();
    await other.connect();
    expect(counter.counts()).toMatchObject({ connections: 1, statements: 0, roundTrips: 0 });
    await other.end();
    expect(await counted(() => client.query('select 1'))).toEqual({ statements: 1, roundTrips: 1, sql: ['select 1'] });
  });

  it('counts a query with parameters (Parse, Bind, Execute, Sync) and a named statement run twice', async () => {
    expect(await counted(() => client.query('select $1::int as n', [1]))).toEqual({ statements: 1, roundTrips: 1, sql: ['select $1::int as n'] });
    const named = { name: 'wire_counter_test', text: 'select $1::text as t', values: ['a'] };
    expect(await counted(async () => {
      await client.query(named);
      await client.query({ ...named, values: ['b'] });
    })).toEqual({ statements: 2, roundTrips: 2, sql: ['select $1::text as t', 'select $1::text as t'] });
  });

  it('counts each statement of a multi-statement simple query, in its one round trip', async () => {
    expect(await counted(() => client.query('select 1; select 2; select 3'))).toMatchObject({ statements: 3, roundTrips: 1 });
  });

  it('counts a transaction: begin, its statements and commit, each a round trip', async () => {
    await client.query('create temporary table wire_counter_t (n int)');
    expect(await counted(async () => {
      await client.query('begin');
      await client.query('insert into wire_counter_t values ($1)', [1]);
      await client.query('insert into wire_counter_t values ($1)', [2]);
      await client.query('commit');
    })).toMatchObject({ statements: 4, roundTrips: 4 });
  });

  it('counts a refused statement, and sees none for a query answered in the client alone', async () => {
    // node-postgres rejects on the ErrorResponse, before the ReadyForQuery that follows it: the next query waits for that.
    expect(await counted(async () => {
      await client.query('select * from no_such_table').catch(() => undefined);
      await client.query('select 1');
    })).toMatchObject({ statements: 2, roundTrips: 2 });
    expect(await counted(async () => undefined)).toEqual({ statements: 0, roundTrips: 0, sql: [] });
  });
});
