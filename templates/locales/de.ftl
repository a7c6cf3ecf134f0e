# sso-bridge-Seiten, Deutsch (Sie-Form). Jede Nachricht von en.ftl steht hier, keine weitere,
# mit denselben Werten ({ $name }) und demselben Markup (<strong>, <em>, <code>, <span>, <br>);
# ein gerades doppeltes Anführungszeichen nur um id oder class eines solchen Tags.

language-name = Deutsch
language-menu-label = Sprache
language-menu-change = Sprache wechseln

## Von mehreren Seiten geteilt

continue-to = um mit <strong>{ $app }</strong> fortzufahren
signed-in-as = Angemeldet als <strong>{ $username }</strong>
signin-username = Benutzername
signin-password = Passwort
signin-button = Anmelden
otp-code-label = Code aus Ihrer Authenticator-App
otp-verify = Bestätigen
otp-lost-phone = Telefon verloren? Geben Sie stattdessen einen Ihrer Wiederherstellungscodes ein.
locked = Zu viele Versuche. Warten Sie einige Minuten und versuchen Sie es dann erneut.
signin-expired = Ihre Anmeldung ist abgelaufen. Bitte melden Sie sich erneut an.

## Anmeldung

signin-page-title = Anmelden
signin-heading = Anmelden
signin-hint = Verwenden Sie Ihr Konto aus dem Unternehmensverzeichnis.
signin-missing = Geben Sie Ihren Benutzernamen und Ihr Passwort ein.
signin-username-too-long = Der Benutzername ist zu lang.
signin-username-control = Der Benutzername enthält ein Zeichen, das in Namen nie vorkommt.
signin-wrong = Benutzername oder Passwort ist falsch.
account-disabled = Ihr Konto ist deaktiviert. Der Helpdesk kann Ihnen den Grund nennen und es wieder aktivieren.
account-expired = Ihr Konto ist abgelaufen. Bitten Sie den Helpdesk, es zu verlängern.
account-locked = Ihr Konto ist gesperrt, meist nach zu vielen falschen Passwörtern. Warten Sie eine Weile und versuchen Sie es erneut, oder bitten Sie den Helpdesk, es zu entsperren.
account-password-expired = Ihr Passwort ist abgelaufen. Ändern Sie es und melden Sie sich dann mit dem neuen Passwort an.
account-must-change-password = Sie müssen Ihr Passwort ändern, bevor Sie sich anmelden können. Ändern Sie es und melden Sie sich dann mit dem neuen Passwort an.
help-desk-link = Helpdesk kontaktieren
change-password-link = Passwort ändern
signin-passkey = Mit einem Passkey anmelden
signin-passkey-hint = Oder ohne Passwort:
signin-passkey-refused = Dieser Passkey wurde nicht angenommen, oder kein Konto hier verwendet ihn.
signin-passkey-account-unusable = Dieses Konto kann sich gerade nicht anmelden: Es ist deaktiviert, abgelaufen oder nicht mehr im Verzeichnis. Der Helpdesk kann Ihnen sagen, warum.

## Zweiter Faktor

otp-page-title = Bestätigung in zwei Schritten
otp-heading = Bestätigung in zwei Schritten
otp-wrong = Dieser Code stimmt nicht. Geben Sie den aktuellen Code aus Ihrer Authenticator-App oder einen Wiederherstellungscode ein.
otp-replayed = Dieser Code wurde bereits verwendet. Warten Sie auf den nächsten Code und geben Sie ihn ein.

enrol-page-title = Bestätigung in zwei Schritten einrichten
enrol-heading = Bestätigung in zwei Schritten einrichten
enrol-scan = Scannen Sie diesen Code mit einer Authenticator-App (zum Beispiel FreeOTP, Aegis, Google oder Microsoft Authenticator):
enrol-qr-alt = QR-Code mit dem Geheimnis für Ihren Authenticator
enrol-type-key = Oder geben Sie diesen Schlüssel von Hand in die App ein:
enrol-code-label = Geben Sie den 6-stelligen Code ein, den die App anzeigt
enrol-confirm = Bestätigen
enrol-wrong = Dieser Code stimmt nicht. Prüfen Sie, ob die App dieses Konto anzeigt, und geben Sie dessen aktuellen Code ein.
enrol-renewed = Die Einrichtung hat zu lange gedauert und wurde erneuert. Scannen Sie den neuen Code.

codes-page-title = Wiederherstellungscodes
codes-save-heading = Speichern Sie Ihre Wiederherstellungscodes
codes-save-text = Mit jedem Code können Sie sich einmal anmelden, falls Sie Ihren Authenticator verlieren. Sie werden nur jetzt angezeigt: Drucken Sie sie aus oder bewahren Sie sie in einem Passwortmanager auf.
codes-used-heading = Sie haben einen Wiederherstellungscode verwendet
codes-left = Sie haben noch <strong id="codes-left">{ $left }</strong> { $left ->
        [one] Wiederherstellungscode
       *[other] Wiederherstellungscodes
    }.
codes-lost = Falls Sie Ihren Authenticator verloren haben, richten Sie jetzt einen neuen ein: Er ersetzt den alten, und Sie erhalten neue Wiederherstellungscodes.
codes-lost-link = Neuen Authenticator einrichten
codes-continue = Weiter
passkey-use = Passkey verwenden
passkey-second-factor-hint = Bestätigen Sie mit Ihrem Passkey: Ihr Gerät fragt eventuell nach seiner PIN, Ihrem Fingerabdruck oder Ihrem Gesicht.
passkey-failed = Der Passkey wurde nicht verwendet. Versuchen Sie es erneut oder wählen Sie einen anderen Weg.
passkey-refused = Dieser Passkey wurde nicht angenommen. Versuchen Sie es erneut oder nutzen Sie einen anderen Weg.
passkey-expired = Die Passkey-Anfrage ist abgelaufen. Versuchen Sie es erneut.
passkey-no-answer = Es kam keine Antwort des Passkeys an. Versuchen Sie es erneut.
passkey-too-large = Die Antwort des Passkeys ist zu groß, um angenommen zu werden.
passkey-bad-name = Geben Sie dem Passkey einen Namen mit 1 bis 64 Zeichen.
passkey-duplicate = Dieser Passkey ist bereits registriert.
passkey-full = Sie haben bereits so viele Passkeys wie erlaubt (10). Entfernen Sie zuerst einen.
passkey-needs-script = Passkeys brauchen JavaScript, das in diesem Browser ausgeschaltet ist.
enrol-passkey-heading = Passkey hinzufügen
enrol-passkey-text = Ein Passkey bleibt auf diesem Gerät oder Ihrem Telefon und wird mit dessen PIN, Ihrem Fingerabdruck oder Ihrem Gesicht entsperrt. Er meldet Sie auch ohne Passwort an.
enrol-passkey-name = Name des Passkeys
enrol-passkey-name-hint = Zum Beispiel: Arbeitslaptop
enrol-passkey-add = Passkey hinzufügen

## Zustimmung

consent-page-title = Zugriff erlauben
consent-heading = <span class="app-name">{ $app }</span> möchte auf Ihr Konto zugreifen
consent-will-read = Wenn Sie zustimmen, kann { $app } Folgendes lesen:
consent-no-scopes = Nur, dass Sie angemeldet sind.
consent-destination = In jedem Fall werden Sie anschließend zu <strong>{ $host }</strong> weitergeleitet.
consent-allow = Erlauben
consent-deny = Ablehnen
consent-enrol-link = Schützen Sie Ihr Konto mit der Bestätigung in zwei Schritten
scope-openid = Wissen, wer Sie sind (Ihre Benutzerkennung)
scope-profile = Ihr Profil lesen: Name, Personalnummer, Stellenbezeichnung, Abteilung und Telefon
scope-email = Ihre E-Mail-Adresse lesen
scope-role = Ihre Rolle im Unternehmen lesen
scope-groups = Lesen, in welchen Gruppen Sie Mitglied sind

## Abmeldung

logout-page-title = Abmelden
logout-done-heading = Sie sind abgemeldet
logout-done-text = Ihre Single-Sign-on-Sitzung ist beendet. Apps, die Sie verwendet haben, können ihre eigene Sitzung behalten, bis Sie sich auch dort abmelden.
logout-confirm-heading = Abmelden?
logout-app-asks = <strong>{ $app }</strong> möchte Ihre Single-Sign-on-Sitzung beenden.
logout-end-session = Ihre Single-Sign-on-Sitzung in diesem Browser beenden.
logout-button = Abmelden
logout-stay = Um angemeldet zu bleiben, schließen Sie diese Seite.

## Fehlerseiten

error-status = Fehler { $status }
error-quote-reference = Wenn Sie sich an den Helpdesk wenden, nennen Sie diese Referenz:
error-sign-in-first-title = Anmeldung erforderlich
error-sign-in-first-message = Melden Sie sich an, um diese Seite zu sehen.
error-expired-title = Anmeldung abgelaufen
error-expired-message = Diese Anmeldeseite ist abgelaufen oder wurde bereits verwendet. Kehren Sie zur Anwendung zurück und beginnen Sie von vorn.
error-forged-title = Anfrage abgelehnt
error-forged-message = Dieses Formular wurde nicht von der Anmeldeseite gesendet, die dieser Browser geöffnet hat. Kehren Sie zur Anwendung zurück und beginnen Sie von vorn.
error-busy-title = Die Anmeldung ist ausgelastet
error-busy-message = Gerade laufen zu viele Anmeldungen gleichzeitig. Es ist nichts verloren gegangen; bitte versuchen Sie es in einigen Minuten erneut.
error-too-many-waiting-title = Zu viele laufende Anmeldungen
error-too-many-waiting-message = Aus Ihrem Netzwerk warten zu viele Anmeldungen auf ihren Abschluss. Schließen Sie die geöffneten Anmeldeseiten ab oder schließen Sie sie, oder versuchen Sie es in einigen Minuten erneut.
error-store-title = Anmeldung vorübergehend nicht verfügbar
error-store-message = Der Anmeldedienst erreicht seinen Sitzungsspeicher gerade nicht. Es ist nichts verloren gegangen; bitte versuchen Sie es in einer Minute erneut.
error-directory-title = Verzeichnis nicht verfügbar
error-directory-message = Das Unternehmensverzeichnis antwortet nicht, daher kann Ihre Anmeldung gerade nicht geprüft werden. Bitte versuchen Sie es in einigen Minuten erneut.
error-unusable-account-title = Anmeldung mit diesem Konto nicht möglich
error-unusable-account-message = Ihrem Verzeichniskonto fehlen Angaben, die für die Anmeldung nötig sind. Wenden Sie sich an den IT-Helpdesk.
error-second-factor-title = Bestätigung in zwei Schritten nicht verfügbar
error-second-factor-message = Ihr zweiter Faktor kann gerade nicht geprüft werden. Wenden Sie sich an den IT-Helpdesk und nennen Sie die Referenz unten.
error-no-access-title = Kein Zugang zu { $app }
error-no-access-message = Ihr Konto gibt Ihnen keinen Zugang zu { $app }: Die Anwendung ist nur für bestimmte Rollen oder Gruppen freigegeben. Bei Ihren anderen Anwendungen bleiben Sie angemeldet. Wenn Sie { $app } brauchen, wenden Sie sich an das Team, das die Anwendung betreibt.
error-no-access-back = Zurück zu { $app }
error-admin-forbidden-title = Nur für Superadmins
error-admin-forbidden-message = Verbundene Apps werden von Superadmins verwaltet. Mit Ihrem Konto können Sie sich bei Apps anmelden, sie aber nicht verwalten. Wenden Sie sich an einen Superadmin, wenn eine App registriert oder geändert werden soll.
error-render-title = Etwas ist schiefgelaufen
error-render-message = Diese Seite konnte nicht angezeigt werden. Bitte versuchen Sie es erneut.
error-bad-form-title = Ungültiges Formular
error-form-unreadable = Das Formular konnte nicht gelesen werden. Gehen Sie zurück und versuchen Sie es erneut.
error-not-utf8 = Die Anfrage ist kein gültiges UTF-8.
error-decision = Das Formular muss decision=approve oder decision=deny senden.
error-language-unknown = Das Sprachmenü hat eine Sprache gesendet, in der diese Seiten nicht verfügbar sind.
error-not-found-title = Nicht gefunden
error-invalid-request-title = Ungültige Anfrage
error-request-too-long = Die Anfrage ist länger als { $max } Bytes. An die Anwendung wurde nichts zurückgesendet.
error-request-malformed = Die Anfrage konnte nicht gelesen werden: { $detail }. An die Anwendung wurde nichts zurückgesendet.
error-no-client-id = Die Anfrage nennt keine Anwendung (client_id fehlt).
error-no-redirect-uri = Die Anfrage nennt keine Rücksprungadresse (redirect_uri fehlt).
error-unknown-app-title = Unbekannte Anwendung
error-unknown-app-message = Die Anwendung, die Sie hierher geschickt hat, ist beim Anmeldedienst nicht registriert oder wurde deaktiviert. Wenden Sie sich an das Team, das die Anwendung betreibt.
error-app-gone-message = Die Anwendung ist beim Anmeldedienst nicht mehr registriert.
error-unregistered-redirect-title = Nicht registrierte Rücksprungadresse
error-unregistered-redirect-message = Die Anwendung wollte Sie an eine Adresse zurückschicken, die für sie nicht registriert ist. Dorthin wurde nichts gesendet. Die Entwickler der Anwendung sollten die genaue Callback-URL registrieren (erhalten: { $uri }).
error-logout-title = Ungültige Abmeldeanfrage
error-logout-malformed = Fehler in der Anfrage: { $detail }. Es wurde nichts geändert.
error-logout-foreign-hint = Der id_token_hint wurde nicht von diesem Anmeldedienst ausgestellt. Es wurde nichts geändert.
error-logout-client-mismatch = client_id passt nicht zum id_token_hint. Es wurde nichts geändert.
error-logout-unknown-app = Die Anwendung, die Sie hierher geschickt hat, ist beim Anmeldedienst nicht registriert oder wurde deaktiviert.
error-logout-unregistered-return = Die Anwendung wollte Sie an eine Adresse zurückschicken, die nicht für die Abmeldung registriert ist (erhalten: { $uri }). Es wurde nichts geändert.
error-logout-return-needs-app = Eine Rücksprungadresse braucht id_token_hint oder client_id, damit klar ist, welche Anwendung fragt. Es wurde nichts geändert.

## Passkeys

audit-action-passkey_added = Passkey hinzugefügt
account-passkeys-heading = Passkeys
account-passkey-added = Hinzugefügt
account-passkey-last-used = Zuletzt verwendet
account-passkey-never-used = noch nicht verwendet
account-passkeys-none = Noch keine.
account-passkey-add = Passkey hinzufügen
account-passkey-new-name = Name
account-passkey-rename = Umbenennen
account-passkey-remove = Diesen Passkey entfernen
account-passkey-added-notice = Ihr neuer Passkey wurde hinzugefügt.
account-passkey-renamed = Ihr Passkey wurde umbenannt.
account-passkey-removed = Ihr Passkey wurde entfernt.
account-passkey-required = Ihre Organisation verlangt bei der Anmeldung einen zweiten Schritt, und dies ist Ihr letzter: Fügen Sie einen weiteren Passkey oder eine Authenticator-App hinzu, bevor Sie ihn entfernen.
account-passkey-add-page-title = Passkey hinzufügen
account-passkey-add-heading = Passkey hinzufügen
account-reauth-passkey-hint = Sie haben sich mit einem Passkey angemeldet: Verwenden Sie ihn zur Bestätigung erneut.
audit-action-passkey_removed = Passkey entfernt

## Kontoseite

account-page-title = Ihr Konto
account-heading = Ihr Konto
account-link = Ihr Konto: Apps und Sitzungen
account-apps-heading = Apps
account-app-scopes = Darf lesen
account-app-first-used = Zuerst genutzt
account-app-last-used = Zuletzt genutzt
account-not-noted = nicht erfasst
account-app-remove = { $app } entfernen
account-apps-none = Sie haben noch keiner App Zugriff gegeben.
account-apps-hint = Wenn Sie eine App entfernen, werden Sie dort abgemeldet und Ihre Zustimmung wird vergessen: Die App fragt beim nächsten Mal erneut.
account-sessions-heading = Wo Sie angemeldet sind
account-this-browser = dieser Browser
account-session-address = Adresse
account-session-signed-in = Angemeldet
account-session-last-seen = Zuletzt aktiv
account-session-end = Dort abmelden
account-session-end-this = Hier abmelden
account-sessions-end-all = Überall sonst abmelden
account-device = { $browser } unter { $system }
account-device-browser = { $browser }
account-device-system = Ein Browser unter { $system }
account-device-unknown = Unbekannter Browser
account-app-removed = Die App wurde entfernt: Sie sind dort abgemeldet, und sie fragt erneut nach Ihrer Zustimmung.
account-session-ended = Diese Sitzung wurde beendet.
account-sessions-ended = { $count ->
        [one] { $count } andere Sitzung wurde beendet.
       *[other] { $count } andere Sitzungen wurden beendet.
    }
account-not-theirs-title = Nicht gefunden
account-not-theirs-message = Diese App oder Sitzung gehört nicht zu Ihnen oder ist bereits beendet. Es wurde nichts geändert.
account-signin-page-title = Bei Ihrem Konto anmelden
account-signin-lede = Melden Sie sich mit Ihrem Firmenkonto an, um Ihre Apps und Ihre Anmeldungen zu sehen.
account-signin-otp-lede = Geben Sie den Code aus Ihrer Authenticator-App ein.
account-signin-start-over = Von vorn beginnen
account-wrong-code = Dieser Code ist nicht richtig. Versuchen Sie es erneut.
account-two-step-heading = Zweistufige Anmeldung
account-two-step-required = Ihre Rolle verlangt bei der Anmeldung einen zweiten Schritt.
account-authenticator-heading = Authenticator-App
account-authenticator-since = Eingerichtet am { $at }.
account-authenticator-none = Nicht eingerichtet.
account-recovery-heading = Wiederherstellungscodes
account-recovery-left = { $left ->
        [one] Noch { $left } Code.
       *[other] Noch { $left } Codes.
    }
account-recovery-none = Keine: Sie gehören zu einer Authenticator-App.
account-activity-heading = Letzte Aktivitäten
account-activity-when = Wann
account-activity-what = Was
account-activity-app = App
account-activity-outcome = Ergebnis
account-activity-ok = erledigt
account-activity-failed = abgelehnt
account-activity-none = Noch nichts erfasst.
audit-action-app_removed = App von der Person entfernt
audit-action-session_ended = Sitzung von der Person beendet
account-enrol-lede = um zu <strong>Ihrem Konto</strong> zu gelangen
account-authenticator-set-up = Authenticator-App einrichten
account-authenticator-replace = Durch neue App oder neues Telefon ersetzen
account-authenticator-replace-hint = Ihre bisherige App funktioniert weiter, bis die neue ihren ersten Code gezeigt hat.
account-authenticator-remove = Authenticator-App entfernen
account-authenticator-removed = Ihre Authenticator-App und ihre Wiederherstellungscodes wurden entfernt.
account-authenticator-required = Ihre Rolle verlangt bei der Anmeldung einen zweiten Schritt, daher kann die Authenticator-App nicht entfernt werden. Sie können sie durch eine neue ersetzen.
account-recovery-renew = Neue Wiederherstellungscodes erzeugen
account-recovery-renew-hint = Die neuen Codes werden einmal angezeigt; die alten funktionieren dann nicht mehr.
account-reauth-page-title = Bestätigen Sie, dass Sie es sind
account-reauth-heading = Bestätigen Sie, dass Sie es sind
account-reauth-lede = Ihre Anmeldung liegt mehr als 5 Minuten zurück. Geben Sie Ihr Passwort erneut ein, bevor Sie ändern, wie Sie sich anmelden.
account-reauth-button = Bestätigen
account-reauth-cancel = Zurück zu Ihrem Konto
account-reauth-wrong = Das Passwort ist nicht richtig. Versuchen Sie es erneut.
audit-action-second_factor_removed = Authenticator-App von der Person entfernt
audit-action-recovery_codes_renewed = neue Wiederherstellungscodes
audit-action-passkey_renamed = Passkey umbenannt

## Verwaltung

admin-nav-label = Verwaltung
admin-nav-home = Identität &amp; SSO
admin-nav-apps = Verbundene Apps
admin-nav-users = Benutzer
admin-nav-audit = Audit-Protokoll
admin-nav-sign-out = Abmelden

admin-signin-page-title = Anmeldung zur Verwaltung
admin-signin-lede = Verwaltung von Identität &amp; SSO. Melden Sie sich mit Ihrem Verzeichniskonto an (nur Superadmins).
admin-signin-otp-lede = Bestätigung in zwei Schritten: Geben Sie den Code aus Ihrer Authenticator-App ein.
admin-signin-start-over = Von vorn beginnen
admin-signin-idle = Zu Ihrer Sicherheit meldet Sie die Verwaltung nach { $minutes ->
        [one] { $minutes } Minute
       *[other] { $minutes } Minuten
    } ohne Aktivität ab.
admin-enrol-first = Ihr Konto muss die Bestätigung in zwei Schritten einrichten, bevor es verwalten darf. Melden Sie sich in diesem Browser bei einer verbundenen App an, um sie einzurichten, oder führen Sie `sso-bridge users enrol-mfa` aus.
admin-wrong-code = Dieser Code stimmt nicht oder wurde bereits verwendet. Geben Sie den aktuellen Code aus Ihrer Authenticator-App oder einen Wiederherstellungscode ein.

admin-apps-heading = Verbundene Apps
admin-apps-search-label = Nach Name oder Client-ID suchen
admin-apps-search = Suchen
admin-apps-caption = { $shown } von { $total ->
        [one] { $total } App
       *[other] { $total } Apps
    }
admin-apps-status = Status
admin-apps-created = Erstellt
admin-apps-no-match = Keine App passt zu „{ $query }“.
admin-apps-show-all = Alle Apps anzeigen
admin-apps-none = Es sind noch keine Apps registriert. Sobald der Verantwortliche einer App Ihnen deren Callback-URL schickt, registrieren Sie die App, um ihr eine Client-ID und ein Secret zu geben.
admin-apps-none-link = Erste App registrieren
admin-name = Name
admin-client-id = Client-ID
admin-client-secret = Client-Secret
admin-redirect-uris = Weiterleitungs-URIs
admin-post-logout-uris = Weiterleitungs-URIs nach der Abmeldung
admin-optional = (optional)
admin-type = Typ
admin-type-public-short = öffentlich
admin-type-confidential-short = vertraulich
admin-enabled = aktiv
admin-disabled = deaktiviert
admin-last-used = Zuletzt verwendet
admin-never = nie
admin-require-pkce = PKCE verlangen
admin-may-introspect = Ressourcenserver: darf Tokens anderer Apps prüfen (Introspektion)
admin-alg-label = Signaturalgorithmus für id_tokens
admin-alg-default = Standard des Dienstes ({ $alg })
admin-alg-es256 = ES256 (ECDSA P-256)
admin-alg-rs256 = RS256 (RSA)
admin-notice-updated = Änderungen gespeichert.
admin-notice-unchanged = Es wurde nichts geändert.
admin-notice-disabled = App deaktiviert: Ihre Anmeldungen und Token-Anfragen werden abgelehnt, und alle ihre Tokens wurden widerrufen.
admin-notice-enabled = App aktiviert: Sie kann wieder Mitarbeitende anmelden.
admin-notice-deleted = App gelöscht: Alle ihre Codes und Tokens wurden widerrufen.

admin-register-heading = App registrieren
admin-register-lede = Der Verantwortliche der App nennt Ihnen deren Namen und Callback-URLs. Sie geben die Client-ID und, bei einer vertraulichen App, das Secret zurück.
admin-register-refused = Die App wurde nicht registriert:
admin-name-hint = Wird Mitarbeitenden auf der Zustimmungsseite angezeigt.
admin-register-uris-hint = Eine pro Zeile, genau abgeglichen. https, oder http nur für 127.0.0.1, [::1] und localhost; eine native App darf ein eigenes Schema verwenden, etwa <code>com.example.app:/callback</code>.
admin-register-logout-hint = Wohin die App Personen schicken darf, nachdem sie sie abgemeldet hat (OpenID-Connect-Abmeldung). Eine pro Zeile, gleiche Regeln wie für Weiterleitungs-URIs.
admin-register-confidential = Vertraulich – eine serverseitige App, die ein Secret aufbewahrt
admin-register-public = Öffentlich – eine native oder mobile App: kein Secret, PKCE erforderlich
admin-register-pkce-hint = Empfohlen. Schalten Sie es nur für eine vertrauliche App ab, deren Bibliothek kein PKCE beherrscht.
admin-register-introspect-hint = Für eine API, die die Tokens prüft, die Mitarbeitende aus anderen Apps mitbringen. Ohne diese Einstellung beantwortet die Introspektion einer App nur Fragen zu ihren eigenen Tokens. Nur für vertrauliche Apps.
admin-register-alg-hint = Was die Bibliothek der App erwartet (<code>id_token_signed_response_alg</code>). ES256 kostet den Dienst pro Token weit weniger als RS256; die meisten Bibliotheken akzeptieren beides.
admin-register-button = Registrieren

admin-error-bad-name = Der Name muss 1 bis 100 Zeichen lang sein.
admin-error-no-redirect-uri = Mindestens eine Weiterleitungs-URI ist erforderlich.
admin-error-too-many-uris = In jeder Liste dürfen höchstens { $max } URIs registriert werden.
admin-error-not-found = Keine App mit der client_id `{ $id }`. Sie wurde möglicherweise gelöscht.
admin-error-public-app = Dies ist eine öffentliche App: Sie hat kein Secret, das erneuert werden könnte.
admin-error-public-introspection = Eine öffentliche App kann keine Tokens prüfen: Die Introspektion erfordert ein Client-Secret.
admin-error-unsupported-alg = id_tokens können hier nicht mit { $alg } signiert werden: Dieser Dienst hat nur einen Signaturschlüssel für { $supported }. Um { $alg } anzubieten, nennen Sie einen { $alg }-Schlüssel in oidc.extra_signing_key_files.
admin-error-busy = Die App wurde während dieser Änderung laufend geändert; bitte versuchen Sie es erneut.
admin-error-unknown-role = `{ $role }` ist keine der sieben Rollen (employee, manager, hr, finance, ceo, admin, superadmin).
admin-error-bad-group = Nennen Sie jede Gruppe mit ihrem Namen, wie ihn der Claim groups zeigt, oder mit ihrem DN, in höchstens { $max } Bytes.
admin-error-too-many-listed = Es dürfen höchstens { $max } Rollen, Gruppen oder Web-Origins eingetragen werden.
admin-error-bad-origin = `{ $origin }` ist kein Web-Origin: nur schema://host[:port] angeben (http oder https; kein Pfad, kein *, kein null).
admin-error-bad-logout-uri = `{ $uri }` kann keine Back-Channel-Logouts empfangen: geben Sie eine https-URL an (http nur zu localhost, 127.0.0.1 oder [::1]), ohne Fragment.
admin-uri-not-absolute = `{ $uri }` ist keine absolute URL.
admin-uri-fragment = `{ $uri }` hat ein Fragment (#...), das eine Weiterleitungs-URI nicht haben darf.
admin-uri-wildcard = `{ $uri }` enthält einen Platzhalter; registrieren Sie jede Callback-URL genau.
admin-uri-scheme = `{ $uri }` verwendet ein Schema, das nie erlaubt ist.
admin-uri-https = `{ $uri }` muss https verwenden (einfaches http ist nur für localhost / 127.0.0.1 / [::1] erlaubt).
admin-uri-too-long = `{ $uri }…` ist länger als { $max } Bytes.

admin-app-title = { $name }
admin-app-unchanged = Es wurde nichts geändert:
admin-app-type-public = öffentlich (kein Secret, PKCE erforderlich)
admin-app-type-confidential-pkce = vertraulich, PKCE erforderlich
admin-app-type-confidential = vertraulich, PKCE optional
admin-app-type-resource-server = ; Ressourcenserver: darf Tokens anderer Apps prüfen
admin-app-id-tokens = id_tokens
admin-app-signed-with = signiert mit { $alg }
admin-app-signed-default = signiert mit dem Standard des Dienstes
admin-app-registered = Registriert
admin-app-registered-by = von { $user }, { $at }
admin-who-may = Wer sie nutzen darf
admin-who-everyone = Alle
admin-who-roles = Rollen:
admin-who-groups = Gruppen:
admin-access-hint = Keine Rolle ankreuzen und keine Gruppe eintragen: alle. Sonst darf eine Person die App nutzen, wenn ihre Rolle angekreuzt ist oder sie Mitglied einer eingetragenen Gruppe ist (auch über verschachtelte Gruppen).
admin-allowed-groups = Gruppen, die sie nutzen dürfen
admin-allowed-groups-hint = Eine pro Zeile: der Name einer Gruppe, wie ihn der Claim <code>groups</code> zeigt (<code>finance-team</code>), oder ihr vollständiger DN, wenn mehrere Gruppen gleich heißen.
admin-web-origins = Web-Origins
admin-web-origins-hint = Für eine Browser-App: die Origins (<code>https://app.example.com</code>), deren Skripte die Token-, Userinfo- und Widerrufs-Endpunkte aufrufen dürfen, zusätzlich zu denen der Redirect-URIs. Einer pro Zeile.
admin-backchannel-logout = Back-Channel-Logout
admin-backchannel-logout-uri = Back-Channel-Logout-URI
admin-backchannel-logout-hint = Wohin der App sofort gemeldet wird, dass sich jemand abgemeldet hat oder abgemeldet wurde (OpenID Connect Back-Channel Logout). https, oder http zu diesem Rechner.
admin-app-edit = Bearbeiten
admin-app-uris-hint = Eine pro Zeile, genau abgeglichen.
admin-app-logout-hint = Wohin die App Personen nach der Abmeldung schicken darf. Eine pro Zeile.
admin-app-alg-hint = Gilt ab dem nächsten Token der App; ihre Bibliothek muss ihn akzeptieren.
admin-app-introspect-hint = Ohne diese Einstellung beantwortet die Introspektion der App nur Fragen zu ihren eigenen Tokens.
admin-app-save = Änderungen speichern
admin-app-actions = Zugangsdaten und Zugriff
admin-app-rotate = Secret erneuern
admin-app-rotate-hint = Stellt ein neues Secret aus; das bisherige funktioniert sofort nicht mehr.
admin-app-disable = Deaktivieren
admin-app-disable-hint = Lehnt ihre Anmeldungen und Token-Anfragen ab und widerruft alle ihre Tokens.
admin-app-enable = Aktivieren
admin-app-enable-hint = Erlaubt ihr wieder, Mitarbeitende anzumelden.
admin-app-delete = Löschen…
admin-app-delete-hint = Fragt zuerst nach einer Bestätigung.
admin-app-in-audit-log = Diese App im Audit-Protokoll
admin-doctor-heading = Kürzlich fehlgeschlagene Anfragen
admin-doctor-lede = Die zuletzt abgelehnten Anfragen der App, neueste zuerst: Sagen Sie den Entwicklern, was zu beheben ist. Als <em>nicht bestätigt</em> markierte Anfragen haben nicht nachgewiesen, dass sie von der App stammen (jeder kann sie senden und dabei eine beliebige App nennen); Text in Anführungszeichen hat eine solche Anfrage gesendet.
admin-doctor-verified = von der App
admin-doctor-sent-by-us = von sso-bridge gesendet
admin-doctor-unverified = nicht bestätigt
admin-doctor-unverified-title = Nicht nachgewiesen, dass sie von der App stammt: Diese Anfrage kann jeder senden
admin-doctor-none = Keine in den letzten 7 Tagen.

admin-secret-registered = { $app } ist registriert
admin-secret-new = Neues Secret für { $app }
admin-secret-hand-over = Übergeben Sie diese Zugangsdaten den Entwicklern von <strong>{ $app }</strong>.
admin-secret-once = Das Secret wird <strong>nur auf dieser Seite</strong> angezeigt: Es wird als Hashwert gespeichert und kann nicht erneut angezeigt werden.
admin-secret-copy = Kopieren
admin-secret-copied = Kopiert
admin-secret-copy-by-hand = Zum Kopieren Strg+C drücken
admin-secret-copy-hint = Kopieren Sie es jetzt (oder markieren Sie es: Strg+A, Strg+C im Feld).
admin-secret-public = Dies ist eine öffentliche App: Sie hat kein Secret und muss PKCE verwenden.
admin-secret-done = Fertig: zur App

admin-delete-page-title = App löschen
admin-delete-heading = { $app } löschen?
admin-delete-warning = Dies lässt sich nicht rückgängig machen. Die Client-ID der App funktioniert nicht mehr, und alle ihre Anmeldecodes und Tokens werden widerrufen: Ihre Benutzer werden sofort von ihr abgemeldet.
admin-delete-button = App löschen
admin-delete-keep = Behalten

admin-users-page-title = Benutzer
admin-users-heading = Benutzer
admin-users-lookup-heading = Person nachschlagen
admin-users-lookup-lede = Welche Arten von zweitem Faktor eine Person hat. Die Formulare darunter gelten dann für sie.
admin-users-lookup-button = Nachschlagen
admin-users-factors-of = Zweite Faktoren von { $user }
admin-users-authenticator-yes = Ja, eingerichtet am { $at }
admin-users-authenticator-no = Nein
admin-users-recovery-none = Keine
admin-users-passkeys-count = { $count ->
    [one] 1 Passkey:
   *[other] { $count } Passkeys:
}
admin-users-passkeys-none = Keine
admin-users-reset-heading = Bestätigung in zwei Schritten
admin-users-reset-lede = Setzen Sie die Bestätigung in zwei Schritten einer Person zurück, wenn sie ihre Authenticator-App und ihre Wiederherstellungscodes verloren hat. Bei der nächsten Anmeldung richtet sie eine neue ein. Prüfen Sie vorher, wer fragt: Wer das Passwort kennt, richtet danach den neuen Authenticator ein.
admin-users-reset-button = Bestätigung in zwei Schritten entfernen
admin-users-revoke-heading = Überall abmelden
admin-users-revoke-lede = Beendet alle Anmeldesitzungen einer Person und widerruft alle Codes, Zugriffs- und Aktualisierungstokens aller Apps: Jede App fordert sie bei der nächsten Anfrage zur erneuten Anmeldung auf. Für Personen, die das Unternehmen verlassen, oder ein verlorenes oder gestohlenes Gerät. Nennen Sie die Person mit dem Benutzernamen, mit dem sie sich anmeldet; jemanden, der bereits aus dem Verzeichnis gelöscht wurde, mit der Benutzerkennung.
admin-users-revoke-button = Überall abmelden
admin-users-reset-empty = Geben Sie den Benutzernamen ein, dessen Bestätigung in zwei Schritten entfernt werden soll.
admin-users-reset-none = Für { $user } ist keine Bestätigung in zwei Schritten eingerichtet: Es gibt nichts zu entfernen.
admin-users-revoke-empty = Geben Sie den Benutzernamen ein, der überall abgemeldet werden soll.
admin-users-reset-done = Bestätigung in zwei Schritten von { $user } entfernt: Bei der nächsten Anmeldung wird ein neuer Authenticator eingerichtet. { $admin ->
        [one] { $admin } Verwaltungsanmeldung beendet.
       *[other] { $admin } Verwaltungsanmeldungen beendet.
    }
admin-users-revoked = { $user } ist überall abgemeldet: { $sessions ->
        [one] { $sessions } Sitzung beendet
       *[other] { $sessions } Sitzungen beendet
    }, { $grants ->
        [one] { $grants } Berechtigung widerrufen
       *[other] { $grants } Berechtigungen widerrufen
    }, { $admin ->
        [one] { $admin } Verwaltungsanmeldung beendet
       *[other] { $admin } Verwaltungsanmeldungen beendet
    }. Jede App fordert eine erneute Anmeldung.

admin-audit-lede = Verwaltungsaktionen, Anmeldungen sowie ausgestellte oder widerrufene Tokens, neueste zuerst. Kein Secret und kein Token wird je aufgezeichnet. Der Benutzerfilter nimmt einen vollständigen Namen (Groß-/Kleinschreibung egal) oder ein Muster, in dem <code>*</code> für beliebigen Text steht.
admin-audit-action = Aktion
admin-audit-any-action = Alle Aktionen
admin-audit-user = Benutzer
admin-audit-user-placeholder = ada oder ada*
admin-audit-failures-only = Nur Fehlschläge
admin-audit-filter = Filtern
admin-audit-when = Zeitpunkt
admin-audit-app = App
admin-audit-from = Von
admin-audit-result = Ergebnis
admin-audit-ok = ok
admin-audit-failed = fehlgeschlagen
admin-audit-none = Keine Ereignisse passen zu diesen Filtern.
admin-audit-none-so-far = Unter den bisher durchsuchten Ereignissen passt keines zu diesen Filtern.
admin-audit-partial = Eine Suche mit Muster durchsucht das Protokoll abschnittsweise: <strong>Ältere</strong> sucht weiter.
admin-audit-pages = Seiten des Audit-Protokolls
admin-audit-newer = Neuere
admin-audit-older = Ältere
admin-audit-unknown-action = Unbekannte Aktion „{ $action }“: Wählen Sie eine aus der Liste.
audit-action-sign_in = Anmeldung
audit-action-admin_sign_in = Anmeldung zur Verwaltung
audit-action-admin_sign_out = Abmeldung von der Verwaltung
audit-action-app_created = App erstellt
audit-action-app_updated = App geändert
audit-action-secret_rotated = Secret erneuert
audit-action-app_disabled = App deaktiviert
audit-action-app_enabled = App aktiviert
audit-action-app_deleted = App gelöscht
audit-action-token_issued = Token ausgestellt
audit-action-token_refreshed = Token aktualisiert
audit-action-token_revoked = Token widerrufen
audit-action-second_factor_enrolled = zweiter Faktor eingerichtet
audit-action-second_factor_failed = zweiter Faktor fehlgeschlagen
audit-action-recovery_code_used = Wiederherstellungscode verwendet
audit-action-second_factor_reset = zweiter Faktor zurückgesetzt
audit-action-lockout = Sperre
audit-action-sign_out = Abmeldung
audit-action-user_revoked = Benutzer überall abgemeldet
audit-action-access_denied = Zugang verweigert
audit-action-backchannel_logout = Abmeldung an App gesendet
