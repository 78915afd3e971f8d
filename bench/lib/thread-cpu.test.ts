import { describe, expect, it } from 'vitest';
import { cpuPerOp, driverCpu, isWalWriter, postgresDatabase, servesDatabase, threadCpu } from './thread-cpu.ts';

describe('CPU by process (thread-cpu.ts)', () => {
  it("counts a PostgreSQL process only when it works for the server's own database", () => {
    expect(servesDatabase('postgres: postgres sso_test_ab12 127.0.0.1(50712) idle', 'sso_test_ab12')).toBe(true);
    expect(servesDatabase('postgres: autovacuum worker sso_test_ab12', 'sso_test_ab12')).toBe(true);
    // Another suite's database on the same server, and the processes that serve them all.
    expect(servesDatabase('postgres: postgres sso_test_cd34 127.0.0.1(50713) idle', 'sso_test_ab12')).toBe(false);
    expect(servesDatabase('postgres: postgres sso_test_ab123 127.0.0.1(50713) idle', 'sso_test_ab12')).toBe(false);
    expect(servesDatabase('postgres: walwriter', 'sso_test_ab12')).toBe(false);
    expect(servesDatabase('postgres: checkpointer', 'sso_test_ab12')).toBe(false);
  });

  it("tells PostgreSQL's WAL writer by its title, with or without the cluster's name", () => {
    expect(isWalWriter('postgres: walwriter')).toBe(true);
    expect(isWalWriter('postgres: 15/main: walwriter ')).toBe(true);
    expect(isWalWriter('postgres: 15/main: checkpointer')).toBe(false);
    expect(isWalWriter('postgres: postgres walwriter 127.0.0.1(50712) idle')).toBe(false);
    expect(isWalWriter('postgres: walsender postgres 127.0.0.1(50712) streaming')).toBe(false);
  });

  it("names the database of a server's DATABASE_URL, none for SQLite", () => {
    expect(postgresDatabase('postgres://postgres@127.0.0.1:5432/sso_test_ab12')).toBe('sso_test_ab12');
    expect(postgresDatabase('postgresql://u:p@db/x%2Dy?sslmode=disable')).toBe('x-y');
    expect(postgresDatabase('/tmp/sso_test_ab12.db')).toBeUndefined();
    expect(postgresDatabase('postgres://postgres@127.0.0.1:5432/')).toBeUndefined();
  });

  it('reads this process, and counts no database without one', () => {
    const before = threadCpu(process.pid);
    const driverBefore = driverCpu();
    let x = 0;
    for (let i = 0; i < 3e7; i++) x += i % 7;
    expect(x).toBeGreaterThan(0);
    const after = threadCpu(process.pid);
    expect(after.databaseMs).toBe(0);
    expect(after.mainMs).toBeGreaterThanOrEqual(before.mainMs);
    const driver = cpuPerOp(driverBefore, driverCpu(), 1);
    expect(driver.mainUs).toBeGreaterThan(0);
    expect(driver.otherUs + driver.databaseUs).toBe(0);
  });
});
