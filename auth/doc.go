// Package auth logs evdesk in and keeps it logged in.
//
//   - Login runs the OAuth 2.0 authorization-code flow with PKCE (S256) and a
//     random state against {auth_url}/oauth/authorize and /oauth/token (HTTP
//     Basic client authentication), with a loopback redirect listener, the
//     browser opened quietly and a paste-the-URL fallback on standard input.
//   - Store keeps tokens, the client secret and transcription credentials in
//     the OS keyring (service "evdesk:<profile>"), every call bounded by a
//     timeout, with a 0600 file in the config dir only when the user agreed;
//     non-secret metadata (expiry, refresh-token age, scopes, user, backend)
//     sits in the state dir.
//   - TokenSource refreshes the access token a minute before it expires,
//     under a per-profile cross-process lock, re-reading the store first and
//     persisting a rotated refresh token before the new access token is used.
//   - JWTSource mints HS256 JWTs for the AI services.
//
// Secrets never reach logs or error messages; Session and AICredentials
// print without them.
package auth
