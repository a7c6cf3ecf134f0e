# sso-bridge pages, English: the catalog every other language is checked against.
# A message may hold the inline tags <strong>, <em>, <code>, <span> and <br> (with at most an
# id or class, quoted), and the entities &amp; &lt; &gt; &nbsp;; no other double quote, as
# messages without markup also fill attributes. { $name } is a value the page gives: text is
# shown as text, numbers as the language writes them.

language-name = English
language-menu-label = Language
language-menu-change = Change language

## Shared by several pages

continue-to = to continue to <strong>{ $app }</strong>
signed-in-as = Signed in as <strong>{ $username }</strong>
signin-username = Username
signin-password = Password
signin-button = Sign in
otp-code-label = Code from your authenticator app
otp-verify = Verify
otp-lost-phone = Lost your phone? Enter one of your recovery codes instead.
locked = Too many attempts. Wait a few minutes and try again.
signin-expired = Your sign-in has expired. Sign in again.

## Sign-in

signin-page-title = Sign in
signin-heading = Sign in
signin-hint = Use your company directory account.
signin-missing = Enter your username and password.
signin-username-too-long = The username is too long.
signin-username-control = The username holds a character names never have.
signin-wrong = The username or password is incorrect.
account-disabled = Your account is disabled. The help desk can tell you why and turn it back on.
account-expired = Your account has expired. Ask the help desk to extend it.
account-locked = Your account is locked, usually after too many wrong passwords. Wait a while and try again, or ask the help desk to unlock it.
account-password-expired = Your password has expired. Change it, then sign in with the new password.
account-must-change-password = You must change your password before you can sign in. Change it, then sign in with the new password.
help-desk-link = Contact the help desk
change-password-link = Change your password
signin-passkey = Sign in with a passkey
signin-passkey-hint = Or, without a password:
signin-passkey-refused = That passkey was not accepted, or no account here uses it.
signin-passkey-account-unusable = This account cannot sign in now: it is disabled, expired or no longer in the directory. The help desk can tell you why.

## Second factor

otp-page-title = Two-step verification
otp-heading = Two-step verification
otp-wrong = That code is not right. Enter the current code from your authenticator app, or a recovery code.
otp-replayed = That code was already used. Wait for the next code and enter it.

enrol-page-title = Set up two-step verification
enrol-heading = Set up two-step verification
enrol-scan = Scan this code with an authenticator app (for example FreeOTP, Aegis, Google or Microsoft Authenticator):
enrol-qr-alt = QR code holding your authenticator secret
enrol-type-key = Or type this key into the app by hand:
enrol-code-label = Enter the 6-digit code the app shows
enrol-confirm = Confirm
enrol-wrong = That code is not right. Check that the app shows this account and enter its current code.
enrol-renewed = The set-up took too long and has been renewed. Scan the new code.

codes-page-title = Recovery codes
codes-save-heading = Save your recovery codes
codes-save-text = Each code signs you in once if you lose your authenticator. They are shown only now: print them or keep them in a password manager.
codes-used-heading = You used a recovery code
codes-left = You have <strong id="codes-left">{ $left }</strong> { $left ->
        [one] recovery code
       *[other] recovery codes
    } left.
codes-lost = If you lost your authenticator, set up a new one now: it replaces the old one and gives you fresh recovery codes.
codes-lost-link = Set up a new authenticator
codes-continue = Continue
passkey-use = Use your passkey
passkey-second-factor-hint = Confirm with your passkey: your device may ask for its PIN, your fingerprint or your face.
passkey-failed = The passkey was not used. Try again, or choose another way.
passkey-refused = That passkey was not accepted. Try again, or use another way.
passkey-expired = The passkey request has expired. Try again.
passkey-no-answer = No passkey answer arrived. Try again.
passkey-too-large = The passkey answer is too large to be accepted.
passkey-bad-name = Give the passkey a name of 1 to 64 characters.
passkey-duplicate = This passkey is already registered.
passkey-full = You already have as many passkeys as allowed (10). Remove one first.
passkey-needs-script = Passkeys need JavaScript, which is off in this browser.
enrol-passkey-heading = Add a passkey
enrol-passkey-text = A passkey stays on this device or your phone and is unlocked with its PIN, your fingerprint or your face. It also signs you in without a password.
enrol-passkey-name = Name of the passkey
enrol-passkey-name-hint = For example: Work laptop
enrol-passkey-add = Add a passkey

## Consent

consent-page-title = Allow access
consent-heading = <span class="app-name">{ $app }</span> wants to access your account
consent-will-read = If you allow it, { $app } will be able to read:
consent-no-scopes = Only that you have signed in.
consent-destination = Either way, you will then be sent to <strong>{ $host }</strong>.
consent-allow = Allow
consent-deny = Deny
consent-enrol-link = Protect your account with two-step verification
scope-openid = Know who you are (your user id)
scope-profile = Read your profile: name, employee code, job title, department and phone
scope-email = Read your email address
scope-role = Read your role in the company
scope-groups = Read which groups you are a member of

## Sign-out

logout-page-title = Sign out
logout-done-heading = You are signed out
logout-done-text = Your single sign-on session has ended. Apps you used may still keep their own session until you sign out of them too.
logout-confirm-heading = Sign out?
logout-app-asks = <strong>{ $app }</strong> asks to end your single sign-on session.
logout-end-session = End your single sign-on session on this browser.
logout-button = Sign out
logout-stay = To stay signed in, close this page.

## Error pages

error-status = Error { $status }
error-quote-reference = If you contact the help desk, quote this reference:
error-sign-in-first-title = Sign-in required
error-sign-in-first-message = Sign in to see this page.
error-expired-title = Sign-in expired
error-expired-message = This sign-in page has expired or was already used. Go back to the application and start again.
error-forged-title = Request refused
error-forged-message = This form was not submitted from the sign-in page this browser opened. Go back to the application and start again.
error-busy-title = Sign-on is busy
error-busy-message = Sign-on has too many sign-ins under way right now. Nothing of yours was lost; please try again in a few minutes.
error-too-many-waiting-title = Too many sign-ins under way
error-too-many-waiting-message = Too many sign-ins from your network are waiting to be finished. Finish or close the sign-in pages you have open, or try again in a few minutes.
error-store-title = Sign-on temporarily unavailable
error-store-message = Sign-on cannot reach its session store right now. Nothing was lost; please try again in a minute.
error-directory-title = Directory unavailable
error-directory-message = The company directory is not answering, so your sign-in cannot be checked right now. Please try again in a few minutes.
error-unusable-account-title = Account cannot sign in
error-unusable-account-message = Your directory account is missing the attributes sign-on needs. Contact the IT help desk.
error-second-factor-title = Two-step verification unavailable
error-second-factor-message = Sign-on cannot check your second factor right now. Contact the IT help desk and quote the reference below.
error-no-access-title = No access to { $app }
error-no-access-message = Your account does not give you access to { $app }: it is only for some roles or groups. You are still signed in to your other apps. If you need { $app }, ask the team that runs it.
error-no-access-back = Back to { $app }
error-admin-forbidden-title = Superadmins only
error-admin-forbidden-message = Connected Apps are managed by superadmins. Your account can sign in to apps, but not administer them. Ask a superadmin if you need an app registered or changed.
error-render-title = Something went wrong
error-render-message = Sign-on failed to show this page. Please try again.
error-bad-form-title = Invalid form
error-form-unreadable = The form could not be read. Go back and try again.
error-not-utf8 = The request is not valid UTF-8.
error-decision = The form must submit decision=approve or decision=deny.
error-language-unknown = The language menu sent a language these pages are not written in.
error-not-found-title = Not found
error-invalid-request-title = Invalid request
error-request-too-long = The request is longer than { $max } bytes. Nothing was sent back to the application.
error-request-malformed = The request could not be read: { $detail }. Nothing was sent back to the application.
error-no-client-id = The request names no application (client_id is missing).
error-no-redirect-uri = The request names no return address (redirect_uri is missing).
error-unknown-app-title = Unknown application
error-unknown-app-message = The application that sent you here is not registered with sign-on, or has been disabled. Contact the team that runs the application.
error-app-gone-message = The application is no longer registered with sign-on.
error-unregistered-redirect-title = Unregistered return address
error-unregistered-redirect-message = The application asked to send you back to an address that is not registered for it. Nothing was sent there. The application's developers should register the exact callback URL (received: { $uri }).
error-logout-title = Invalid sign-out request
error-logout-malformed = The { $detail }. Nothing was changed.
error-logout-foreign-hint = The id_token_hint was not issued by this sign-on service. Nothing was changed.
error-logout-client-mismatch = client_id does not match the id_token_hint. Nothing was changed.
error-logout-unknown-app = The application that sent you here is not registered with sign-on, or has been disabled.
error-logout-unregistered-return = The application asked to send you back to an address that is not registered for sign-out (received: { $uri }). Nothing was changed.
error-logout-return-needs-app = A return address needs id_token_hint or client_id to say which application asks. Nothing was changed.

## Passkeys

audit-action-passkey_added = passkey added
account-passkeys-heading = Passkeys
account-passkey-added = Added
account-passkey-last-used = Last used
account-passkey-never-used = not used yet
account-passkeys-none = None yet.
account-passkey-add = Add a passkey
account-passkey-new-name = Name
account-passkey-rename = Rename
account-passkey-remove = Remove this passkey
account-passkey-added-notice = Your new passkey was added.
account-passkey-renamed = Your passkey was renamed.
account-passkey-removed = Your passkey was removed.
account-passkey-required = Your organisation requires a second step at sign-in, and this is your last one: add another passkey or an authenticator app before you remove it.
account-passkey-add-page-title = Add a passkey
account-passkey-add-heading = Add a passkey
account-reauth-passkey-hint = You signed in with a passkey: use it again to confirm.
audit-action-passkey_removed = passkey removed

## Account page

account-page-title = Your account
account-heading = Your account
account-link = Your account: apps and sessions
account-apps-heading = Apps
account-app-scopes = Can read
account-app-first-used = First used
account-app-last-used = Last used
account-not-noted = not recorded
account-app-remove = Remove { $app }
account-apps-none = You have not let any app in yet.
account-apps-hint = Removing an app signs you out of it and forgets your approval: it asks you again next time.
account-sessions-heading = Where you are signed in
account-this-browser = this browser
account-session-address = Address
account-session-signed-in = Signed in
account-session-last-seen = Last seen
account-session-end = Sign out there
account-session-end-this = Sign out here
account-sessions-end-all = Sign out everywhere else
account-device = { $browser } on { $system }
account-device-browser = { $browser }
account-device-system = A browser on { $system }
account-device-unknown = Unknown browser
account-app-removed = The app was removed: it is signed out and will ask for your approval again.
account-session-ended = That session has ended.
account-sessions-ended = { $count ->
        [one] { $count } other session has ended.
       *[other] { $count } other sessions have ended.
    }
account-not-theirs-title = Not found
account-not-theirs-message = That app or session is not one of yours, or it has ended already. Nothing was changed.
account-signin-page-title = Sign in to your account
account-signin-lede = Sign in with your company account to see your apps and where you are signed in.
account-signin-otp-lede = Enter the code from your authenticator app.
account-signin-start-over = Start over
account-wrong-code = That code is not right. Try again.
account-two-step-heading = Two-step verification
account-two-step-required = Your role asks for a second step at sign-in.
account-authenticator-heading = Authenticator app
account-authenticator-since = Set up on { $at }.
account-authenticator-none = Not set up.
account-recovery-heading = Recovery codes
account-recovery-left = { $left ->
        [one] { $left } code left.
       *[other] { $left } codes left.
    }
account-recovery-none = None: they come with an authenticator app.
account-activity-heading = Recent activity
account-activity-when = When
account-activity-what = What
account-activity-app = App
account-activity-outcome = Outcome
account-activity-ok = done
account-activity-failed = refused
account-activity-none = Nothing recorded yet.
audit-action-app_removed = app removed by the person
audit-action-session_ended = session ended by the person
account-enrol-lede = to continue to <strong>your account</strong>
account-authenticator-set-up = Set up an authenticator app
account-authenticator-replace = Replace with a new app or phone
account-authenticator-replace-hint = Your current app keeps working until the new one has shown its first code.
account-authenticator-remove = Remove the authenticator app
account-authenticator-removed = Your authenticator app and its recovery codes were removed.
account-authenticator-required = Your role requires a second step at sign-in, so the authenticator app cannot be removed. You can replace it with a new one.
account-recovery-renew = Get new recovery codes
account-recovery-renew-hint = The new codes are shown once; the old ones stop working.
account-reauth-page-title = Confirm it is you
account-reauth-heading = Confirm it is you
account-reauth-lede = You signed in more than 5 minutes ago. Enter your password again before you change how you sign in.
account-reauth-button = Confirm
account-reauth-cancel = Back to your account
account-reauth-wrong = That password is not right. Try again.
audit-action-second_factor_removed = authenticator app removed by the person
audit-action-recovery_codes_renewed = new recovery codes
audit-action-passkey_renamed = passkey renamed

## Admin screen

admin-nav-label = Administration
admin-nav-home = Identity &amp; SSO
admin-nav-apps = Connected Apps
admin-nav-users = Users
admin-nav-audit = Audit log
admin-nav-sign-out = Sign out

admin-signin-page-title = Admin sign-in
admin-signin-lede = Identity &amp; SSO administration. Sign in with your directory account (superadmins only).
admin-signin-otp-lede = Two-step verification: enter the code from your authenticator app.
admin-signin-start-over = Start over
admin-signin-idle = For safety the admin screen signs you out after { $minutes ->
        [one] { $minutes } minute
       *[other] { $minutes } minutes
    } without activity.
admin-enrol-first = Your account must set up two-step verification before it can administer. Sign in to any connected app in this browser to set it up, or run `sso-bridge users enrol-mfa`.
admin-wrong-code = That code is not right or was already used. Enter the current code from your authenticator app, or a recovery code.

admin-apps-heading = Connected Apps
admin-apps-search-label = Search by name or client id
admin-apps-search = Search
admin-apps-caption = { $shown } of { $total ->
        [one] { $total } app
       *[other] { $total } apps
    }
admin-apps-status = Status
admin-apps-created = Created
admin-apps-no-match = No app matches “{ $query }”.
admin-apps-show-all = Show every app
admin-apps-none = No apps are registered yet. When an app's owner sends you its callback URL, register the app to give it a client id and secret.
admin-apps-none-link = Register the first app
admin-name = Name
admin-client-id = Client id
admin-client-secret = Client secret
admin-redirect-uris = Redirect URIs
admin-post-logout-uris = Post-logout redirect URIs
admin-optional = (optional)
admin-type = Type
admin-type-public-short = public
admin-type-confidential-short = confidential
admin-enabled = enabled
admin-disabled = disabled
admin-last-used = Last used
admin-never = never
admin-require-pkce = Require PKCE
admin-may-introspect = Resource server: may introspect other apps' tokens
admin-alg-label = id_token signing algorithm
admin-alg-default = Service default ({ $alg })
admin-alg-es256 = ES256 (ECDSA P-256)
admin-alg-rs256 = RS256 (RSA)
admin-notice-updated = Changes saved.
admin-notice-unchanged = Nothing was changed.
admin-notice-disabled = App disabled: its sign-ins and token requests are refused, and every token it held was revoked.
admin-notice-enabled = App enabled: it can sign staff in again.
admin-notice-deleted = App deleted: every code and token it held was revoked.

admin-register-heading = Register an app
admin-register-lede = The app's owner tells you its name and callback URLs. You hand back the client id and, for a confidential app, the secret.
admin-register-refused = The app was not registered:
admin-name-hint = Shown to staff on the consent page.
admin-register-uris-hint = One per line, matched exactly. https, or http only for 127.0.0.1, [::1] and localhost; a native app may use its own scheme such as <code>com.example.app:/callback</code>.
admin-register-logout-hint = Where the app may send people back to after it signs them out (OpenID Connect logout). One per line, same rules as redirect URIs.
admin-register-confidential = Confidential — a server-side app that keeps a secret
admin-register-public = Public — a native or mobile app: no secret, PKCE required
admin-register-pkce-hint = Recommended. Turn it off only for a confidential app whose library cannot do PKCE.
admin-register-introspect-hint = For an API that checks the tokens staff bring from other apps. Without it, an app's introspection answers only for its own tokens. Confidential apps only.
admin-register-alg-hint = What the app's library expects (<code>id_token_signed_response_alg</code>). ES256 costs the service far less per token than RS256; most libraries accept either.
admin-register-button = Register

admin-error-bad-name = Name must be 1 to 100 characters.
admin-error-no-redirect-uri = At least one redirect URI is required.
admin-error-too-many-uris = At most { $max } URIs may be registered in each list.
admin-error-not-found = No app with client_id `{ $id }`. It may have been deleted.
admin-error-public-app = This is a public app: it has no secret to rotate.
admin-error-public-introspection = A public app cannot introspect tokens: introspection needs a client secret.
admin-error-unsupported-alg = id_tokens cannot be signed with { $alg } here: this service holds a signing key for { $supported } only; to offer { $alg }, name a { $alg } key in oidc.extra_signing_key_files.
admin-error-busy = The app kept changing while this change was made; try again.
admin-error-unknown-role = `{ $role }` is not one of the seven roles (employee, manager, hr, finance, ceo, admin, superadmin).
admin-error-bad-group = Name each group by its name as the groups claim shows it, or by its DN, in at most { $max } bytes.
admin-error-too-many-listed = At most { $max } roles, groups or web origins may be listed.
admin-error-bad-origin = `{ $origin }` is not a web origin: give scheme://host[:port] only (http or https; no path, no *, no null).
admin-error-bad-logout-uri = `{ $uri }` cannot receive back-channel logouts: give an https URL (http only to localhost, 127.0.0.1 or [::1]), without a fragment.
admin-uri-not-absolute = `{ $uri }` is not an absolute URL.
admin-uri-fragment = `{ $uri }` has a fragment (#...), which a redirect URI must not have.
admin-uri-wildcard = `{ $uri }` contains a wildcard; register each callback URL exactly.
admin-uri-scheme = `{ $uri }` uses a scheme that is never allowed.
admin-uri-https = `{ $uri }` must use https (plain http is allowed only for localhost / 127.0.0.1 / [::1]).
admin-uri-too-long = `{ $uri }…` is longer than { $max } bytes.

admin-app-title = { $name }
admin-app-unchanged = Nothing was changed:
admin-app-type-public = public (no secret, PKCE required)
admin-app-type-confidential-pkce = confidential, PKCE required
admin-app-type-confidential = confidential, PKCE optional
admin-app-type-resource-server = ; resource server: may introspect other apps' tokens
admin-app-id-tokens = id_tokens
admin-app-signed-with = signed { $alg }
admin-app-signed-default = signed with the service default
admin-app-registered = Registered
admin-app-registered-by = by { $user }, { $at }
admin-who-may = Who may use it
admin-who-everyone = Everyone
admin-who-roles = Roles:
admin-who-groups = Groups:
admin-access-hint = Leave every role unticked and no group listed for everyone. Otherwise a person may use the app when their role is ticked or they are a member of a listed group (nested groups count).
admin-allowed-groups = Groups that may use it
admin-allowed-groups-hint = One per line: a group's name as the <code>groups</code> claim shows it (<code>finance-team</code>), or its full DN when several groups share a name.
admin-web-origins = Web origins
admin-web-origins-hint = For a browser app: the origins (<code>https://app.example.com</code>) whose scripts may call the token, userinfo and revocation endpoints, besides those of the redirect URIs. One per line.
admin-backchannel-logout = Back-channel logout
admin-backchannel-logout-uri = Back-channel logout URI
admin-backchannel-logout-hint = Where the app is told at once when someone signs out or is signed out (OpenID Connect Back-Channel Logout). https, or http to this machine.
admin-app-edit = Edit
admin-app-uris-hint = One per line, matched exactly.
admin-app-logout-hint = Where the app may send people back to after signing them out. One per line.
admin-app-alg-hint = Takes effect from the app's next token; its library must accept it.
admin-app-introspect-hint = Without it, the app's introspection answers only for its own tokens.
admin-app-save = Save changes
admin-app-actions = Credentials and access
admin-app-rotate = Rotate secret
admin-app-rotate-hint = Issues a new secret; the current one stops working at once.
admin-app-disable = Disable
admin-app-disable-hint = Refuses its sign-ins and token requests and revokes every token it holds.
admin-app-enable = Enable
admin-app-enable-hint = Lets it sign staff in again.
admin-app-delete = Delete…
admin-app-delete-hint = Asks for confirmation first.
admin-app-in-audit-log = This app in the audit log
admin-doctor-heading = Recent failed requests
admin-doctor-lede = The app's last refused requests, newest first: tell its developers what to fix. Requests marked <em>unverified</em> did not prove they came from the app (anyone can send them, naming any app); text in quotes is what such a request sent.
admin-doctor-verified = from the app
admin-doctor-sent-by-us = sent by sso-bridge
admin-doctor-unverified = unverified
admin-doctor-unverified-title = Not proven to come from the app: anyone can send this request
admin-doctor-none = None in the last 7 days.

admin-secret-registered = { $app } is registered
admin-secret-new = New secret for { $app }
admin-secret-hand-over = Hand these credentials to the developers of <strong>{ $app }</strong>.
admin-secret-once = The secret is shown <strong>only on this page</strong>: it is stored as a digest and cannot be shown again.
admin-secret-copy = Copy
admin-secret-copied = Copied
admin-secret-copy-by-hand = Press Ctrl+C to copy
admin-secret-copy-hint = Copy it now (or select it: Ctrl+A, Ctrl+C in the field).
admin-secret-public = This is a public app: it has no secret and must use PKCE.
admin-secret-done = Done: go to the app

admin-delete-page-title = Delete app
admin-delete-heading = Delete { $app }?
admin-delete-warning = This cannot be undone. The app's client id stops working, and every sign-in code and token it holds is revoked: its users are signed out of it at once.
admin-delete-button = Delete the app
admin-delete-keep = Keep it

admin-users-page-title = Users
admin-users-heading = Users
admin-users-lookup-heading = Look up a user
admin-users-lookup-lede = Which kinds of second factor a person has. The forms below then apply to them.
admin-users-lookup-button = Look up
admin-users-factors-of = Second factors of { $user }
admin-users-authenticator-yes = Yes, set up on { $at }
admin-users-authenticator-no = No
admin-users-recovery-none = None
admin-users-passkeys-count = { $count ->
    [one] 1 passkey:
   *[other] { $count } passkeys:
}
admin-users-passkeys-none = None
admin-users-reset-heading = Two-step verification
admin-users-reset-lede = Reset a user's two-step verification when they lost their authenticator app and their recovery codes. They set up a new one at their next sign-in. Check who is asking first: whoever holds the password then sets up the new authenticator.
admin-users-reset-button = Remove two-step verification
admin-users-revoke-heading = Sign out everywhere
admin-users-revoke-lede = End every sign-on session of a user and revoke every code, access token and refresh token of every app: each app asks them to sign in again at its next request. For someone leaving, or a lost or stolen device. Name them by the username they sign in with; someone already deleted from the directory by their user id.
admin-users-revoke-button = Sign out everywhere
admin-users-reset-empty = Enter the username whose two-step verification to remove.
admin-users-reset-none = { $user } has no two-step verification set up: nothing to remove.
admin-users-revoke-empty = Enter the username to sign out everywhere.
admin-users-reset-done = Two-step verification of { $user } removed: they set up a new authenticator at their next sign-in. { $admin ->
        [one] { $admin } admin sign-in ended.
       *[other] { $admin } admin sign-ins ended.
    }
admin-users-revoked = { $user } is signed out everywhere: { $sessions ->
        [one] { $sessions } session ended
       *[other] { $sessions } sessions ended
    }, { $grants ->
        [one] { $grants } grant revoked
       *[other] { $grants } grants revoked
    }, { $admin ->
        [one] { $admin } admin sign-in ended
       *[other] { $admin } admin sign-ins ended
    }. Every app asks them to sign in again.

admin-audit-lede = Admin actions, sign-ins and tokens issued or revoked, newest first. No secret or token is ever recorded. The user filter takes a whole name (any case), or a pattern in which <code>*</code> stands for any text.
admin-audit-action = Action
admin-audit-any-action = Any action
admin-audit-user = User
admin-audit-user-placeholder = ada, or ada*
admin-audit-failures-only = Failures only
admin-audit-filter = Filter
admin-audit-when = When
admin-audit-app = App
admin-audit-from = From
admin-audit-result = Result
admin-audit-ok = ok
admin-audit-failed = failed
admin-audit-none = No events match these filters.
admin-audit-none-so-far = No events match these filters among those looked through so far.
admin-audit-partial = A search by a pattern looks through part of the log at a time: <strong>Older</strong> looks further.
admin-audit-pages = Pages of the audit log
admin-audit-newer = Newer
admin-audit-older = Older
admin-audit-unknown-action = Unknown action “{ $action }”: choose one from the list.
audit-action-sign_in = sign in
audit-action-admin_sign_in = admin sign in
audit-action-admin_sign_out = admin sign out
audit-action-app_created = app created
audit-action-app_updated = app updated
audit-action-secret_rotated = secret rotated
audit-action-app_disabled = app disabled
audit-action-app_enabled = app enabled
audit-action-app_deleted = app deleted
audit-action-token_issued = token issued
audit-action-token_refreshed = token refreshed
audit-action-token_revoked = token revoked
audit-action-second_factor_enrolled = second factor enrolled
audit-action-second_factor_failed = second factor failed
audit-action-recovery_code_used = recovery code used
audit-action-second_factor_reset = second factor reset
audit-action-lockout = lockout
audit-action-sign_out = sign out
audit-action-user_revoked = user revoked
audit-action-access_denied = access denied
audit-action-backchannel_logout = sign-out sent to app
