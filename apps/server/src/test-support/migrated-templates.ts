import { DIALECTS, TEMPLATE_ENV, createMigratedTemplate } from './test-db.ts';

/**
 * The unit suite's global setup (vitest.config.ts): one database per dialect migrated to the latest
 * schema before the test files start, named to them by TEMPLATE_ENV, which each test database then
 * copies (test-db.ts createMigratedTestDb) instead of running all the migrations again; removed
 * after the run. The worker processes start after this and inherit the environment.
 */
export async function setup(): Promise<() => Promise<void>> {
  const templates = await Promise.all(DIALECTS.map(async (dialect) => [dialect, await createMigratedTemplate(dialect)] as const));
  for (const [dialect, template] of templates) process.env[TEMPLATE_ENV[dialect]] = template.value;
  return async () => {
    for (const [dialect, template] of templates) {
      delete process.env[TEMPLATE_ENV[dialect]];
      await template.drop();
    }
  };
}
