import { readFileSync } from 'node:fs';

/**
 * Reads a JSON file named by a configuration variable once at boot and builds from it; a missing
 * or invalid file stops the start with the variable's name, the file and the first line of why.
 */
export function loadConfigFile<T>(p: { variable: string; file: string; entry: string }, build: (raw: unknown) => T): T {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(p.file, 'utf8'));
  } catch (e) {
    throw new Error(`Invalid configuration: ${p.variable} cannot be read as JSON (${p.file}): ${(e as Error).message}`);
  }
  try {
    return build(raw);
  } catch (e) {
    throw new Error(`Invalid configuration: ${p.variable} has an invalid ${p.entry} entry (${p.file}): ${(e as Error).message.split('\n')[0]}`);
  }
}
