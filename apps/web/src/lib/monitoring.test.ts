import { describe, expect, it, vi } from 'vitest';
import { envConfigFrom, envSettings } from './env.ts';
import { configuredMonitoringLoader, startMonitoring } from './monitoring.ts';

const config = envConfigFrom({ MODE: 'production', VITE_HOST_PRODUCTION: 'id.example.co.jp', VITE_HOST_STAGING: 'stg.example.co.jp' });
const at = (hostname: string, port = '') => envSettings({ hostname, origin: `https://${hostname}`, port }, config);

describe('real-user monitoring', () => {
  it('starts on a known host with a 100% session sample and language ja', () => {
    const load = vi.fn();
    expect(startMonitoring(at('stg.example.co.jp'), load)).toBe(true);
    expect(load).toHaveBeenCalledExactlyOnceWith({ env: 'staging', sessionSampleRate: 100, language: 'ja' });
  });

  it('stays off locally, on unknown hosts and in tests', () => {
    const load = vi.fn();
    expect(startMonitoring(at('localhost', '5173'), load)).toBe(false);
    expect(startMonitoring(at('www.example.com'), load)).toBe(false);
    const inTests = envConfigFrom({ MODE: 'test', VITE_HOST_PRODUCTION: 'id.example.co.jp' });
    expect(startMonitoring(envSettings({ hostname: 'id.example.co.jp', origin: 'https://id.example.co.jp', port: '' }, inTests), load)).toBe(false);
    expect(load).not.toHaveBeenCalled();
  });

  it('loads nothing without a configured agent script, and initialises the agent once its script has loaded', () => {
    expect(configuredMonitoringLoader(undefined, 'RUM')).toBeUndefined();
    const append = vi.fn();
    const init = vi.fn();
    vi.stubGlobal('RUM', { init });
    configuredMonitoringLoader('https://rum.example.net/agent.js', 'RUM', append)?.({ env: 'production', sessionSampleRate: 100, language: 'ja' });
    expect(append).toHaveBeenCalledWith('https://rum.example.net/agent.js', expect.any(Function));
    expect(init).not.toHaveBeenCalled();
    append.mock.calls[0]![1]();
    expect(init).toHaveBeenCalledWith({ env: 'production', sessionSampleRate: 100, language: 'ja' });
    vi.unstubAllGlobals();
  });
});
