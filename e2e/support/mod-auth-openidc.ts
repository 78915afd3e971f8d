import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { startForegroundServer } from './foreground-server.ts';

/** Debian's Apache and its mod_auth_openidc, installed by scripts/setup-machine.sh (which honours the same variables). */
export const APACHE = process.env.APACHE2_PATH ?? '/usr/sbin/apache2';
const MODULES = process.env.APACHE2_MODULES ?? '/usr/lib/apache2/modules';
export const MOD_AUTH_OPENIDC = join(MODULES, 'mod_auth_openidc.so');

/** Whether this machine has both; without them the journey is skipped, except in CI, where it fails. */
export const modAuthOpenidcInstalled = (): boolean => existsSync(APACHE) && existsSync(MOD_AUTH_OPENIDC);

/**
 * The paths of the relying party on http://127.0.0.1:<port>: another site than the provider's
 * http://localhost:<port>, as a partner's is, so that neither reads the other's cookies.
 */
export const rpUrls = (port: number) => {
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    /** The protected page: it shows the claims mod_auth_openidc passes to the application. */
    protectedUrl: `${origin}/protected/claims`,
    /** OIDCRedirectURI: a vanity URL under the protected path, serving no content (the module's own). */
    redirectUri: `${origin}/protected/redirect_uri`,
    /** Where the member lands after the logout: outside the protected path. */
    loggedOutUrl: `${origin}/logged-out`,
  };
};

/** What the relying party registers at the provider, exactly as mod_auth_openidc sends each string. */
export const rpRegistration = (port: number) => {
  const urls = rpUrls(port);
  return {
    redirect_uris: [urls.redirectUri],
    // `<redirect_uri>?logout=<url>` sends <url> as the post_logout_redirect_uri, unchanged.
    post_logout_redirect_uris: [urls.loggedOutUrl],
    // The module's back-channel logout endpoint is its redirect URI with this query.
    backchannel_logout_uri: `${urls.redirectUri}?logout=backchannel`,
  };
};

export interface RelyingPartyOptions {
  port: number;
  /** The provider's issuer: its discovery document is `<issuer>/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  scope: string;
  /** Leaves OIDCPKCEMethod out, as a partner who skipped it would: the product must refuse the request. */
  withoutPkce?: boolean;
}

export interface ApacheRelyingParty {
  urls: ReturnType<typeof rpUrls>;
  /** The end of Apache's error log so far (mod_auth_openidc logs at info): for a failure's message. */
  log(): string;
  stop(): Promise<void>;
}

/**
 * The protected application: a CGI program that prints what mod_auth_openidc put into its environment
 * (OIDCPassClaimsAs environment), one `NAME=value` line each, as text.
 */
const CLAIMS_CGI = `#!/bin/sh
printf 'Content-Type: text/plain; charset=utf-8\\r\\nCache-Control: no-store\\r\\n\\r\\n'
echo "REMOTE_USER=$REMOTE_USER"
env | grep '^OIDC_' | sort
`;

/**
 * Apache's configuration, every path inside `dir`: a prefork server with the modules the relying
 * party needs and mod_auth_openidc configured as its documentation says (the package's
 * auth_openidc.conf), for the product as a statically configured provider found by discovery.
 */
function config(dir: string, o: RelyingPartyOptions): string {
  const urls = rpUrls(o.port);
  const modules = ['mpm_prefork', 'authn_core', 'authz_core', 'authz_user', 'alias', 'cgi', 'auth_openidc'];
  // Run as root, Apache's children serve as an unprivileged user (it refuses to serve as root).
  const user = userInfo().uid === 0 ? 'User www-data\nGroup www-data\n' : '';
  return `ServerRoot "${dir}"
ServerName 127.0.0.1
Listen 127.0.0.1:${o.port}
PidFile "${dir}/httpd.pid"
DefaultRuntimeDir "${dir}"
ErrorLog "${dir}/error.log"
LogLevel warn auth_openidc:info
${modules.map((m) => `LoadModule ${m}_module "${MODULES}/mod_${m}.so"`).join('\n')}
${user}StartServers 2
MinSpareServers 1
MaxSpareServers 2
# A held keep-alive connection would keep a child from the provider's back-channel logout POST.
KeepAlive Off
DocumentRoot "${dir}/htdocs"

OIDCProviderMetadataURL ${o.issuer}/.well-known/openid-configuration
OIDCClientID ${o.clientId}
OIDCClientSecret ${o.clientSecret}
OIDCRedirectURI ${urls.redirectUri}
OIDCCryptoPassphrase ${randomBytes(32).toString('hex')}
OIDCScope "${o.scope}"
${o.withoutPkce ? '' : '# The provider requires PKCE S256 of every client (docs/partners.md section 3).\nOIDCPKCEMethod S256\n'}# The claims of the ID token and of userinfo (fetched at the login, again a minute on) to the application's environment.
OIDCPassClaimsAs environment
OIDCPassUserInfoAs claims
OIDCUserInfoRefreshInterval 60

ScriptAlias /protected/claims "${dir}/cgi/claims"
ScriptAlias /logged-out "${dir}/cgi/claims"
<Location /protected>
  AuthType openid-connect
  Require valid-user
</Location>
`;
}

/** Starts a non-system Apache with mod_auth_openidc in the foreground on 127.0.0.1:`port`, all of it in a temporary directory. */
export async function startApacheRelyingParty(o: RelyingPartyOptions): Promise<ApacheRelyingParty> {
  const dir = mkdtempSync(join(tmpdir(), 'sso-apache-'));
  // Apache's children (www-data when run as root) read the CGI program here.
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, 'htdocs'));
  mkdirSync(join(dir, 'cgi'));
  writeFileSync(join(dir, 'cgi', 'claims'), CLAIMS_CGI, { mode: 0o755 });
  // What a browser asks every site for, answered so that no page logs a 404.
  writeFileSync(join(dir, 'htdocs', 'favicon.ico'), '');
  // It holds the client secret: readable by the user who starts Apache only (root reads it before dropping privileges).
  writeFileSync(join(dir, 'httpd.conf'), config(dir, o), { mode: 0o600 });
  const urls = rpUrls(o.port);
  // Its own process group: Apache's stop signals its whole group (prefork's killpg), which must not be
  // the test runner's. Its SIGTERM is Apache's graceless stop: the parent ends its children, then itself.
  const server = await startForegroundServer({
    name: 'apache2',
    command: APACHE,
    args: ['-d', dir, '-f', join(dir, 'httpd.conf'), '-DFOREGROUND'],
    dir,
    errorLog: join(dir, 'error.log'),
    readyUrl: urls.loggedOutUrl,
    // The claims program's first line.
    readyText: 'REMOTE_USER=',
    detached: true,
  });
  return { urls, log: () => server.log().slice(-3000), stop: server.stop };
}
