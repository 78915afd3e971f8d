import { appendScript } from './analytics.ts';
import type { Environment, EnvSettings } from './env.ts';

/** Real-user monitoring settings (SPEC.md section 9: a 100% session sample, language 'ja'). */
export interface MonitoringConfig {
  env: Environment;
  sessionSampleRate: 100;
  language: 'ja';
}

/** Loads the vendor agent with the config; injected, so that nothing loads locally or in tests. */
export type MonitoringLoader = (config: MonitoringConfig) => void;

/** The config to start with, or undefined where monitoring does not run (envSettings.monitoring). */
export const monitoringConfig = (settings: EnvSettings): MonitoringConfig | undefined =>
  settings.monitoring ? { env: settings.environment, sessionSampleRate: 100, language: 'ja' } : undefined;

/** Starts monitoring on the three known hosts only; returns whether it started. */
export function startMonitoring(settings: EnvSettings, load: MonitoringLoader | undefined): boolean {
  const config = monitoringConfig(settings);
  if (!config || !load) return false;
  load(config);
  return true;
}

/**
 * The loader configured at build time: VITE_MONITORING_SCRIPT_URL is the agent script, whose global
 * VITE_MONITORING_GLOBAL gets `init(config)` once it has loaded. Undefined when either is unset.
 */
export function configuredMonitoringLoader(
  src: string | undefined = import.meta.env.VITE_MONITORING_SCRIPT_URL,
  globalName: string | undefined = import.meta.env.VITE_MONITORING_GLOBAL,
  append: typeof appendScript = appendScript,
): MonitoringLoader | undefined {
  if (!src || !globalName) return undefined;
  const agent = () => Reflect.get(globalThis, globalName) as { init?: (c: MonitoringConfig) => void } | undefined;
  return (config) => append(src, () => agent()?.init?.(config));
}
