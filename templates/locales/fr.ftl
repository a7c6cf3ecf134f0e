# Pages de sso-bridge, français (vouvoiement). Chaque message de en.ftl figure ici, aucun autre,
# avec les mêmes valeurs ({ $name }) et le même balisage (<strong>, <em>, <code>, <span>, <br>) ;
# un guillemet droit double seulement autour de l’id ou de la class d’une telle balise.
# Avant : ; ! ? et à l’intérieur de « », une espace insécable.

language-name = Français
language-menu-label = Langue
language-menu-change = Changer de langue

## Partagés par plusieurs pages

continue-to = pour continuer vers <strong>{ $app }</strong>
signed-in-as = Connecté en tant que <strong>{ $username }</strong>
signin-username = Nom d’utilisateur
signin-password = Mot de passe
signin-button = Se connecter
otp-code-label = Code de votre application d’authentification
otp-verify = Vérifier
otp-lost-phone = Téléphone perdu ? Saisissez plutôt l’un de vos codes de récupération.
locked = Trop de tentatives. Patientez quelques minutes, puis réessayez.
signin-expired = Votre connexion a expiré. Veuillez vous reconnecter.

## Connexion

signin-page-title = Connexion
signin-heading = Connexion
signin-hint = Utilisez votre compte de l’annuaire de l’entreprise.
signin-missing = Saisissez votre nom d’utilisateur et votre mot de passe.
signin-username-too-long = Le nom d’utilisateur est trop long.
signin-username-control = Le nom d’utilisateur contient un caractère qui n’apparaît jamais dans un nom.
signin-wrong = Le nom d’utilisateur ou le mot de passe est incorrect.
account-disabled = Votre compte est désactivé. Le service d’assistance peut vous en indiquer la raison et le réactiver.
account-expired = Votre compte a expiré. Demandez au service d’assistance de le prolonger.
account-locked = Votre compte est verrouillé, généralement après trop de mots de passe erronés. Patientez un moment puis réessayez, ou demandez au service d’assistance de le déverrouiller.
account-password-expired = Votre mot de passe a expiré. Modifiez-le, puis connectez-vous avec le nouveau mot de passe.
account-must-change-password = Vous devez modifier votre mot de passe avant de pouvoir vous connecter. Modifiez-le, puis connectez-vous avec le nouveau mot de passe.
help-desk-link = Contacter le service d’assistance
change-password-link = Modifier votre mot de passe
signin-passkey = Se connecter avec une clé d’accès
signin-passkey-hint = Ou, sans mot de passe :
signin-passkey-refused = Cette clé d’accès n’a pas été acceptée, ou aucun compte ici ne l’utilise.
signin-passkey-account-unusable = Ce compte ne peut pas se connecter pour l’instant : il est désactivé, expiré ou n’est plus dans l’annuaire. Le service d’assistance peut vous dire pourquoi.

## Second facteur

otp-page-title = Validation en deux étapes
otp-heading = Validation en deux étapes
otp-wrong = Ce code n’est pas correct. Saisissez le code actuel de votre application d’authentification, ou un code de récupération.
otp-replayed = Ce code a déjà été utilisé. Attendez le code suivant et saisissez-le.

enrol-page-title = Configurer la validation en deux étapes
enrol-heading = Configurer la validation en deux étapes
enrol-scan = Scannez ce code avec une application d’authentification (par exemple FreeOTP, Aegis, Google ou Microsoft Authenticator) :
enrol-qr-alt = Code QR contenant le secret de votre application d’authentification
enrol-type-key = Ou saisissez cette clé à la main dans l’application :
enrol-code-label = Saisissez le code à 6 chiffres affiché par l’application
enrol-confirm = Confirmer
enrol-wrong = Ce code n’est pas correct. Vérifiez que l’application affiche bien ce compte et saisissez son code actuel.
enrol-renewed = La configuration a pris trop de temps et a été renouvelée. Scannez le nouveau code.

codes-page-title = Codes de récupération
codes-save-heading = Enregistrez vos codes de récupération
codes-save-text = Chaque code vous permet de vous connecter une fois si vous perdez votre application d’authentification. Ils ne sont affichés que maintenant : imprimez-les ou conservez-les dans un gestionnaire de mots de passe.
codes-used-heading = Vous avez utilisé un code de récupération
codes-left = Il vous reste <strong id="codes-left">{ $left }</strong> { $left ->
        [one] code de récupération
       *[other] codes de récupération
    }.
codes-lost = Si vous avez perdu votre application d’authentification, configurez-en une nouvelle dès maintenant : elle remplace l’ancienne et vous donne de nouveaux codes de récupération.
codes-lost-link = Configurer une nouvelle application d’authentification
codes-continue = Continuer
passkey-use = Utiliser votre clé d’accès
passkey-second-factor-hint = Confirmez avec votre clé d’accès : votre appareil peut demander son code PIN, votre empreinte ou votre visage.
passkey-failed = La clé d’accès n’a pas été utilisée. Réessayez, ou choisissez un autre moyen.
passkey-refused = Cette clé d’accès n’a pas été acceptée. Réessayez, ou utilisez un autre moyen.
passkey-expired = La demande de clé d’accès a expiré. Réessayez.
passkey-no-answer = Aucune réponse de la clé d’accès n’est arrivée. Réessayez.
passkey-too-large = La réponse de la clé d’accès est trop volumineuse pour être acceptée.
passkey-bad-name = Donnez à la clé d’accès un nom de 1 à 64 caractères.
passkey-duplicate = Cette clé d’accès est déjà enregistrée.
passkey-full = Vous avez déjà autant de clés d’accès que permis (10). Supprimez-en une d’abord.
passkey-needs-script = Les clés d’accès ont besoin de JavaScript, désactivé dans ce navigateur.
enrol-passkey-heading = Ajouter une clé d’accès
enrol-passkey-text = Une clé d’accès reste sur cet appareil ou votre téléphone et se déverrouille avec son code PIN, votre empreinte ou votre visage. Elle vous connecte aussi sans mot de passe.
enrol-passkey-name = Nom de la clé d’accès
enrol-passkey-name-hint = Par exemple : ordinateur portable du bureau
enrol-passkey-add = Ajouter une clé d’accès

## Consentement

consent-page-title = Autoriser l’accès
consent-heading = <span class="app-name">{ $app }</span> souhaite accéder à votre compte
consent-will-read = Si vous l’autorisez, { $app } pourra lire :
consent-no-scopes = Uniquement le fait que vous êtes connecté.
consent-destination = Dans les deux cas, vous serez ensuite redirigé vers <strong>{ $host }</strong>.
consent-allow = Autoriser
consent-deny = Refuser
consent-enrol-link = Protégez votre compte avec la validation en deux étapes
scope-openid = Savoir qui vous êtes (votre identifiant)
scope-profile = Lire votre profil : nom, matricule, intitulé de poste, service et téléphone
scope-email = Lire votre adresse e-mail
scope-role = Lire votre rôle dans l’entreprise
scope-groups = Lire les groupes dont vous êtes membre

## Déconnexion

logout-page-title = Se déconnecter
logout-done-heading = Vous êtes déconnecté
logout-done-text = Votre session d’authentification unique est terminée. Les applications que vous avez utilisées peuvent conserver leur propre session jusqu’à ce que vous vous en déconnectiez aussi.
logout-confirm-heading = Se déconnecter ?
logout-app-asks = <strong>{ $app }</strong> demande à mettre fin à votre session d’authentification unique.
logout-end-session = Mettre fin à votre session d’authentification unique dans ce navigateur.
logout-button = Se déconnecter
logout-stay = Pour rester connecté, fermez cette page.

## Pages d’erreur

error-status = Erreur { $status }
error-quote-reference = Si vous contactez le service d’assistance, indiquez cette référence :
error-sign-in-first-title = Connexion requise
error-sign-in-first-message = Connectez-vous pour voir cette page.
error-expired-title = Connexion expirée
error-expired-message = Cette page de connexion a expiré ou a déjà été utilisée. Revenez à l’application et recommencez.
error-forged-title = Requête refusée
error-forged-message = Ce formulaire n’a pas été envoyé depuis la page de connexion ouverte par ce navigateur. Revenez à l’application et recommencez.
error-busy-title = Le service de connexion est surchargé
error-busy-message = Trop de connexions sont en cours en ce moment. Rien n’a été perdu ; veuillez réessayer dans quelques minutes.
error-too-many-waiting-title = Trop de connexions en cours
error-too-many-waiting-message = Trop de connexions depuis votre réseau attendent d’être terminées. Terminez ou fermez les pages de connexion ouvertes, ou réessayez dans quelques minutes.
error-store-title = Connexion momentanément indisponible
error-store-message = Le service de connexion ne parvient pas à joindre son stockage de sessions pour le moment. Rien n’a été perdu ; veuillez réessayer dans une minute.
error-directory-title = Annuaire indisponible
error-directory-message = L’annuaire de l’entreprise ne répond pas ; votre connexion ne peut donc pas être vérifiée pour le moment. Veuillez réessayer dans quelques minutes.
error-unusable-account-title = Connexion impossible avec ce compte
error-unusable-account-message = Il manque à votre compte de l’annuaire des attributs nécessaires à la connexion. Contactez le service d’assistance informatique.
error-second-factor-title = Validation en deux étapes indisponible
error-second-factor-message = Votre second facteur ne peut pas être vérifié pour le moment. Contactez le service d’assistance informatique en indiquant la référence ci-dessous.
error-no-access-title = Pas d’accès à { $app }
error-no-access-message = Votre compte ne vous donne pas accès à { $app } : l’application est réservée à certains rôles ou groupes. Vous restez connecté à vos autres applications. Si vous avez besoin de { $app }, adressez-vous à l’équipe qui la gère.
error-no-access-back = Retour à { $app }
error-admin-forbidden-title = Réservé aux superadministrateurs
error-admin-forbidden-message = Les applications connectées sont gérées par les superadministrateurs. Votre compte peut se connecter aux applications, mais pas les administrer. Adressez-vous à un superadministrateur si une application doit être enregistrée ou modifiée.
error-render-title = Une erreur s’est produite
error-render-message = Cette page n’a pas pu être affichée. Veuillez réessayer.
error-bad-form-title = Formulaire non valide
error-form-unreadable = Le formulaire n’a pas pu être lu. Revenez en arrière et réessayez.
error-not-utf8 = La requête n’est pas en UTF-8 valide.
error-decision = Le formulaire doit envoyer decision=approve ou decision=deny.
error-language-unknown = Le menu des langues a envoyé une langue dans laquelle ces pages ne sont pas disponibles.
error-not-found-title = Introuvable
error-invalid-request-title = Requête non valide
error-request-too-long = La requête dépasse { $max } octets. Rien n’a été renvoyé à l’application.
error-request-malformed = La requête n’a pas pu être lue : { $detail }. Rien n’a été renvoyé à l’application.
error-no-client-id = La requête ne désigne aucune application (client_id manquant).
error-no-redirect-uri = La requête ne désigne aucune adresse de retour (redirect_uri manquant).
error-unknown-app-title = Application inconnue
error-unknown-app-message = L’application qui vous a envoyé ici n’est pas enregistrée auprès du service de connexion, ou a été désactivée. Contactez l’équipe qui gère l’application.
error-app-gone-message = L’application n’est plus enregistrée auprès du service de connexion.
error-unregistered-redirect-title = Adresse de retour non enregistrée
error-unregistered-redirect-message = L’application a demandé à vous renvoyer vers une adresse qui n’est pas enregistrée pour elle. Rien n’y a été envoyé. Les développeurs de l’application doivent enregistrer l’URL de rappel exacte (reçue : { $uri }).
error-logout-title = Demande de déconnexion non valide
error-logout-malformed = Erreur dans la requête : { $detail }. Rien n’a été modifié.
error-logout-foreign-hint = Le id_token_hint n’a pas été émis par ce service de connexion. Rien n’a été modifié.
error-logout-client-mismatch = client_id ne correspond pas au id_token_hint. Rien n’a été modifié.
error-logout-unknown-app = L’application qui vous a envoyé ici n’est pas enregistrée auprès du service de connexion, ou a été désactivée.
error-logout-unregistered-return = L’application a demandé à vous renvoyer vers une adresse qui n’est pas enregistrée pour la déconnexion (reçue : { $uri }). Rien n’a été modifié.
error-logout-return-needs-app = Une adresse de retour nécessite id_token_hint ou client_id pour savoir quelle application la demande. Rien n’a été modifié.

## Clés d’accès

audit-action-passkey_added = clé d’accès ajoutée
account-passkeys-heading = Clés d’accès
account-passkey-added = Ajoutée le
account-passkey-last-used = Dernière utilisation
account-passkey-never-used = pas encore utilisée
account-passkeys-none = Aucune pour l’instant.
account-passkey-add = Ajouter une clé d’accès
account-passkey-new-name = Nom
account-passkey-rename = Renommer
account-passkey-remove = Supprimer cette clé d’accès
account-passkey-added-notice = Votre nouvelle clé d’accès a été ajoutée.
account-passkey-renamed = Votre clé d’accès a été renommée.
account-passkey-removed = Votre clé d’accès a été supprimée.
account-passkey-required = Votre organisation exige une deuxième étape à la connexion, et celle-ci est la dernière qui vous reste : ajoutez une autre clé d’accès ou une application d’authentification avant de la supprimer.
account-passkey-add-page-title = Ajouter une clé d’accès
account-passkey-add-heading = Ajouter une clé d’accès
account-reauth-passkey-hint = Vous vous êtes connecté avec une clé d’accès : utilisez-la de nouveau pour confirmer.
audit-action-passkey_removed = clé d’accès supprimée

## Page du compte

account-page-title = Votre compte
account-heading = Votre compte
account-link = Votre compte : applications et sessions
account-apps-heading = Applications
account-app-scopes = Peut lire
account-app-first-used = Première utilisation
account-app-last-used = Dernière utilisation
account-not-noted = non enregistré
account-app-remove = Retirer { $app }
account-apps-none = Vous n’avez encore autorisé aucune application.
account-apps-hint = Retirer une application vous en déconnecte et oublie votre accord : elle vous le redemandera la prochaine fois.
account-sessions-heading = Où vous êtes connecté
account-this-browser = ce navigateur
account-session-address = Adresse
account-session-signed-in = Connexion
account-session-last-seen = Dernière activité
account-session-end = Se déconnecter là-bas
account-session-end-this = Se déconnecter ici
account-sessions-end-all = Se déconnecter partout ailleurs
account-device = { $browser } sous { $system }
account-device-browser = { $browser }
account-device-system = Un navigateur sous { $system }
account-device-unknown = Navigateur inconnu
account-app-removed = L’application a été retirée : vous en êtes déconnecté et elle vous redemandera votre accord.
account-session-ended = Cette session est terminée.
account-sessions-ended = { $count ->
        [one] { $count } autre session est terminée.
       *[other] { $count } autres sessions sont terminées.
    }
account-not-theirs-title = Introuvable
account-not-theirs-message = Cette application ou cette session n’est pas la vôtre, ou elle est déjà terminée. Rien n’a été modifié.
account-signin-page-title = Connexion à votre compte
account-signin-lede = Connectez-vous avec votre compte d’entreprise pour voir vos applications et où vous êtes connecté.
account-signin-otp-lede = Saisissez le code de votre application d’authentification.
account-signin-start-over = Recommencer
account-wrong-code = Ce code n’est pas le bon. Réessayez.
account-two-step-heading = Validation en deux étapes
account-two-step-required = Votre rôle exige une seconde étape à la connexion.
account-authenticator-heading = Application d’authentification
account-authenticator-since = Configurée le { $at }.
account-authenticator-none = Non configurée.
account-recovery-heading = Codes de récupération
account-recovery-left = { $left ->
        [one] Il reste { $left } code.
       *[other] Il reste { $left } codes.
    }
account-recovery-none = Aucun : ils accompagnent une application d’authentification.
account-activity-heading = Activité récente
account-activity-when = Quand
account-activity-what = Quoi
account-activity-app = Application
account-activity-outcome = Résultat
account-activity-ok = effectué
account-activity-failed = refusé
account-activity-none = Rien d’enregistré pour l’instant.
audit-action-app_removed = application retirée par la personne
audit-action-session_ended = session terminée par la personne
account-enrol-lede = pour accéder à <strong>votre compte</strong>
account-authenticator-set-up = Configurer une application d’authentification
account-authenticator-replace = Remplacer par une nouvelle application ou un nouveau téléphone
account-authenticator-replace-hint = Votre application actuelle continue de fonctionner jusqu’à ce que la nouvelle ait affiché son premier code.
account-authenticator-remove = Supprimer l’application d’authentification
account-authenticator-removed = Votre application d’authentification et ses codes de récupération ont été supprimés.
account-authenticator-required = Votre rôle exige une seconde étape à la connexion ; l’application d’authentification ne peut donc pas être supprimée. Vous pouvez la remplacer par une nouvelle.
account-recovery-renew = Obtenir de nouveaux codes de récupération
account-recovery-renew-hint = Les nouveaux codes ne sont affichés qu’une fois ; les anciens cessent de fonctionner.
account-reauth-page-title = Confirmez votre identité
account-reauth-heading = Confirmez votre identité
account-reauth-lede = Vous vous êtes connecté il y a plus de 5 minutes. Saisissez à nouveau votre mot de passe avant de modifier votre façon de vous connecter.
account-reauth-button = Confirmer
account-reauth-cancel = Retour à votre compte
account-reauth-wrong = Ce mot de passe n’est pas correct. Réessayez.
audit-action-second_factor_removed = application d’authentification supprimée par la personne
audit-action-recovery_codes_renewed = nouveaux codes de récupération
audit-action-passkey_renamed = clé d’accès renommée

## Administration

admin-nav-label = Administration
admin-nav-home = Identité &amp; SSO
admin-nav-apps = Applications connectées
admin-nav-users = Utilisateurs
admin-nav-audit = Journal d’audit
admin-nav-sign-out = Se déconnecter

admin-signin-page-title = Connexion à l’administration
admin-signin-lede = Administration de l’identité &amp; du SSO. Connectez-vous avec votre compte de l’annuaire (superadministrateurs uniquement).
admin-signin-otp-lede = Validation en deux étapes : saisissez le code de votre application d’authentification.
admin-signin-start-over = Recommencer
admin-signin-idle = Par sécurité, l’administration vous déconnecte après { $minutes ->
        [one] { $minutes } minute
       *[other] { $minutes } minutes
    } d’inactivité.
admin-enrol-first = Votre compte doit configurer la validation en deux étapes avant de pouvoir administrer. Connectez-vous à une application connectée dans ce navigateur pour la configurer, ou exécutez `sso-bridge users enrol-mfa`.
admin-wrong-code = Ce code n’est pas correct ou a déjà été utilisé. Saisissez le code actuel de votre application d’authentification, ou un code de récupération.

admin-apps-heading = Applications connectées
admin-apps-search-label = Rechercher par nom ou identifiant client
admin-apps-search = Rechercher
admin-apps-caption = { $shown } sur { $total ->
        [one] { $total } application
       *[other] { $total } applications
    }
admin-apps-status = État
admin-apps-created = Création
admin-apps-no-match = Aucune application ne correspond à « { $query } ».
admin-apps-show-all = Afficher toutes les applications
admin-apps-none = Aucune application n’est encore enregistrée. Lorsque le responsable d’une application vous envoie son URL de rappel, enregistrez l’application pour lui attribuer un identifiant client et un secret.
admin-apps-none-link = Enregistrer la première application
admin-name = Nom
admin-client-id = Identifiant client
admin-client-secret = Secret client
admin-redirect-uris = URI de redirection
admin-post-logout-uris = URI de redirection après déconnexion
admin-optional = (facultatif)
admin-type = Type
admin-type-public-short = publique
admin-type-confidential-short = confidentielle
admin-enabled = activée
admin-disabled = désactivée
admin-last-used = Dernière utilisation
admin-never = jamais
admin-require-pkce = Exiger PKCE
admin-may-introspect = Serveur de ressources : peut inspecter les jetons des autres applications
admin-alg-label = Algorithme de signature des id_tokens
admin-alg-default = Valeur par défaut du service ({ $alg })
admin-alg-es256 = ES256 (ECDSA P-256)
admin-alg-rs256 = RS256 (RSA)
admin-notice-updated = Modifications enregistrées.
admin-notice-unchanged = Rien n’a été modifié.
admin-notice-disabled = Application désactivée : ses connexions et ses demandes de jetons sont refusées, et tous ses jetons ont été révoqués.
admin-notice-enabled = Application activée : elle peut de nouveau connecter le personnel.
admin-notice-deleted = Application supprimée : tous ses codes et jetons ont été révoqués.

admin-register-heading = Enregistrer une application
admin-register-lede = Le responsable de l’application vous indique son nom et ses URL de rappel. Vous lui remettez l’identifiant client et, pour une application confidentielle, le secret.
admin-register-refused = L’application n’a pas été enregistrée :
admin-name-hint = Affiché au personnel sur la page de consentement.
admin-register-uris-hint = Une par ligne, comparées à l’identique. https, ou http uniquement pour 127.0.0.1, [::1] et localhost ; une application native peut utiliser son propre schéma, comme <code>com.example.app:/callback</code>.
admin-register-logout-hint = Où l’application peut renvoyer les personnes après les avoir déconnectées (déconnexion OpenID Connect). Une par ligne, mêmes règles que pour les URI de redirection.
admin-register-confidential = Confidentielle — une application côté serveur qui garde un secret
admin-register-public = Publique — une application native ou mobile : pas de secret, PKCE obligatoire
admin-register-pkce-hint = Recommandé. Ne le désactivez que pour une application confidentielle dont la bibliothèque ne sait pas faire PKCE.
admin-register-introspect-hint = Pour une API qui vérifie les jetons que le personnel apporte d’autres applications. Sans cette option, l’introspection d’une application ne répond que pour ses propres jetons. Applications confidentielles uniquement.
admin-register-alg-hint = Ce qu’attend la bibliothèque de l’application (<code>id_token_signed_response_alg</code>). ES256 coûte bien moins au service par jeton que RS256 ; la plupart des bibliothèques acceptent les deux.
admin-register-button = Enregistrer

admin-error-bad-name = Le nom doit comporter de 1 à 100 caractères.
admin-error-no-redirect-uri = Au moins une URI de redirection est requise.
admin-error-too-many-uris = Chaque liste peut contenir au plus { $max } URI.
admin-error-not-found = Aucune application avec le client_id `{ $id }`. Elle a peut-être été supprimée.
admin-error-public-app = Il s’agit d’une application publique : elle n’a pas de secret à renouveler.
admin-error-public-introspection = Une application publique ne peut pas inspecter de jetons : l’introspection nécessite un secret client.
admin-error-unsupported-alg = Les id_tokens ne peuvent pas être signés ici avec { $alg } : ce service ne détient une clé de signature que pour { $supported }. Pour proposer { $alg }, indiquez une clé { $alg } dans oidc.extra_signing_key_files.
admin-error-busy = L’application a été modifiée sans cesse pendant cette modification ; veuillez réessayer.
admin-error-unknown-role = `{ $role }` n’est pas l’un des sept rôles (employee, manager, hr, finance, ceo, admin, superadmin).
admin-error-bad-group = Nommez chaque groupe par son nom tel que le montre la revendication groups, ou par son DN, en { $max } octets au plus.
admin-error-too-many-listed = Au plus { $max } rôles, groupes ou origines web peuvent être indiqués.
admin-error-bad-origin = `{ $origin }` n’est pas une origine web : indiquez seulement schéma://hôte[:port] (http ou https ; sans chemin, sans *, sans null).
admin-error-bad-logout-uri = `{ $uri }` ne peut pas recevoir de déconnexions back-channel : indiquez une URL https (http seulement vers localhost, 127.0.0.1 ou [::1]), sans fragment.
admin-uri-not-absolute = `{ $uri }` n’est pas une URL absolue.
admin-uri-fragment = `{ $uri }` contient un fragment (#...), ce qu’une URI de redirection ne doit pas avoir.
admin-uri-wildcard = `{ $uri }` contient un caractère générique ; enregistrez chaque URL de rappel exactement.
admin-uri-scheme = `{ $uri }` utilise un schéma qui n’est jamais autorisé.
admin-uri-https = `{ $uri }` doit utiliser https (http simple n’est autorisé que pour localhost / 127.0.0.1 / [::1]).
admin-uri-too-long = `{ $uri }…` dépasse { $max } octets.

admin-app-title = { $name }
admin-app-unchanged = Rien n’a été modifié :
admin-app-type-public = publique (pas de secret, PKCE obligatoire)
admin-app-type-confidential-pkce = confidentielle, PKCE obligatoire
admin-app-type-confidential = confidentielle, PKCE facultatif
admin-app-type-resource-server = ; serveur de ressources : peut inspecter les jetons des autres applications
admin-app-id-tokens = id_tokens
admin-app-signed-with = signés en { $alg }
admin-app-signed-default = signés avec la valeur par défaut du service
admin-app-registered = Enregistrée
admin-app-registered-by = par { $user }, { $at }
admin-who-may = Qui peut l’utiliser
admin-who-everyone = Tout le monde
admin-who-roles = Rôles :
admin-who-groups = Groupes :
admin-access-hint = Ne cochez aucun rôle et n’indiquez aucun groupe pour tout le monde. Sinon, une personne peut utiliser l’application si son rôle est coché ou si elle est membre d’un groupe indiqué (les groupes imbriqués comptent).
admin-allowed-groups = Groupes qui peuvent l’utiliser
admin-allowed-groups-hint = Un par ligne : le nom d’un groupe tel que le montre la revendication <code>groups</code> (<code>finance-team</code>), ou son DN complet quand plusieurs groupes portent le même nom.
admin-web-origins = Origines web
admin-web-origins-hint = Pour une application web : les origines (<code>https://app.example.com</code>) dont les scripts peuvent appeler les points d’accès token, userinfo et révocation, en plus de celles des URI de redirection. Une par ligne.
admin-backchannel-logout = Déconnexion back-channel
admin-backchannel-logout-uri = URI de déconnexion back-channel
admin-backchannel-logout-hint = Où l’application est prévenue aussitôt qu’une personne se déconnecte ou est déconnectée (OpenID Connect Back-Channel Logout). https, ou http vers cette machine.
admin-app-edit = Modifier
admin-app-uris-hint = Une par ligne, comparées à l’identique.
admin-app-logout-hint = Où l’application peut renvoyer les personnes après les avoir déconnectées. Une par ligne.
admin-app-alg-hint = S’applique à partir du prochain jeton de l’application ; sa bibliothèque doit l’accepter.
admin-app-introspect-hint = Sans cette option, l’introspection de l’application ne répond que pour ses propres jetons.
admin-app-save = Enregistrer les modifications
admin-app-actions = Identifiants et accès
admin-app-rotate = Renouveler le secret
admin-app-rotate-hint = Émet un nouveau secret ; l’actuel cesse aussitôt de fonctionner.
admin-app-disable = Désactiver
admin-app-disable-hint = Refuse ses connexions et ses demandes de jetons et révoque tous ses jetons.
admin-app-enable = Activer
admin-app-enable-hint = Lui permet de nouveau de connecter le personnel.
admin-app-delete = Supprimer…
admin-app-delete-hint = Demande d’abord une confirmation.
admin-app-in-audit-log = Cette application dans le journal d’audit
admin-doctor-heading = Requêtes récemment refusées
admin-doctor-lede = Les dernières requêtes refusées de l’application, des plus récentes aux plus anciennes : dites à ses développeurs ce qu’il faut corriger. Les requêtes marquées <em>non vérifiées</em> n’ont pas prouvé qu’elles venaient de l’application (n’importe qui peut les envoyer, en nommant n’importe quelle application) ; le texte entre guillemets est ce qu’une telle requête a envoyé.
admin-doctor-verified = de l’application
admin-doctor-sent-by-us = envoyé par sso-bridge
admin-doctor-unverified = non vérifiée
admin-doctor-unverified-title = Provenance de l’application non prouvée : n’importe qui peut envoyer cette requête
admin-doctor-none = Aucune au cours des 7 derniers jours.

admin-secret-registered = { $app } est enregistrée
admin-secret-new = Nouveau secret pour { $app }
admin-secret-hand-over = Remettez ces identifiants aux développeurs de <strong>{ $app }</strong>.
admin-secret-once = Le secret n’est affiché <strong>que sur cette page</strong> : il est conservé sous forme d’empreinte et ne peut plus être affiché.
admin-secret-copy = Copier
admin-secret-copied = Copié
admin-secret-copy-by-hand = Appuyez sur Ctrl+C pour copier
admin-secret-copy-hint = Copiez-le maintenant (ou sélectionnez-le : Ctrl+A, Ctrl+C dans le champ).
admin-secret-public = Il s’agit d’une application publique : elle n’a pas de secret et doit utiliser PKCE.
admin-secret-done = Terminé : aller à l’application

admin-delete-page-title = Supprimer l’application
admin-delete-heading = Supprimer { $app } ?
admin-delete-warning = Cette action est irréversible. L’identifiant client de l’application cesse de fonctionner, et tous les codes de connexion et jetons qu’elle détient sont révoqués : ses utilisateurs en sont aussitôt déconnectés.
admin-delete-button = Supprimer l’application
admin-delete-keep = La conserver

admin-users-page-title = Utilisateurs
admin-users-heading = Utilisateurs
admin-users-lookup-heading = Rechercher une personne
admin-users-lookup-lede = Les types de second facteur dont dispose une personne. Les formulaires ci-dessous s’appliquent alors à elle.
admin-users-lookup-button = Rechercher
admin-users-factors-of = Seconds facteurs de { $user }
admin-users-authenticator-yes = Oui, configurée le { $at }
admin-users-authenticator-no = Non
admin-users-recovery-none = Aucun
admin-users-passkeys-count = { $count ->
    [one] 1 clé d’accès :
   *[other] { $count } clés d’accès :
}
admin-users-passkeys-none = Aucune
admin-users-reset-heading = Validation en deux étapes
admin-users-reset-lede = Réinitialisez la validation en deux étapes d’une personne qui a perdu son application d’authentification et ses codes de récupération. Elle en configurera une nouvelle à sa prochaine connexion. Vérifiez d’abord qui fait la demande : quiconque détient le mot de passe configurera ensuite la nouvelle application d’authentification.
admin-users-reset-button = Supprimer la validation en deux étapes
admin-users-revoke-heading = Déconnecter partout
admin-users-revoke-lede = Met fin à toutes les sessions de connexion d’une personne et révoque tous les codes, jetons d’accès et jetons d’actualisation de toutes les applications : chaque application lui demandera de se reconnecter à sa prochaine requête. Pour une personne qui quitte l’entreprise, ou un appareil perdu ou volé. Désignez-la par le nom d’utilisateur avec lequel elle se connecte ; une personne déjà supprimée de l’annuaire, par son identifiant.
admin-users-revoke-button = Déconnecter partout
admin-users-reset-empty = Saisissez le nom d’utilisateur dont la validation en deux étapes doit être supprimée.
admin-users-reset-none = { $user } n’a pas de validation en deux étapes configurée : rien à supprimer.
admin-users-revoke-empty = Saisissez le nom d’utilisateur à déconnecter partout.
admin-users-reset-done = Validation en deux étapes de { $user } supprimée : une nouvelle application d’authentification sera configurée à la prochaine connexion. { $admin ->
        [one] { $admin } connexion à l’administration terminée.
       *[other] { $admin } connexions à l’administration terminées.
    }
admin-users-revoked = { $user } est déconnecté partout : { $sessions ->
        [one] { $sessions } session terminée
       *[other] { $sessions } sessions terminées
    }, { $grants ->
        [one] { $grants } autorisation révoquée
       *[other] { $grants } autorisations révoquées
    }, { $admin ->
        [one] { $admin } connexion à l’administration terminée
       *[other] { $admin } connexions à l’administration terminées
    }. Chaque application lui demandera de se reconnecter.

admin-audit-lede = Actions d’administration, connexions et jetons émis ou révoqués, des plus récents aux plus anciens. Aucun secret ni jeton n’est jamais enregistré. Le filtre utilisateur prend un nom complet (sans tenir compte de la casse), ou un motif dans lequel <code>*</code> remplace n’importe quel texte.
admin-audit-action = Action
admin-audit-any-action = Toutes les actions
admin-audit-user = Utilisateur
admin-audit-user-placeholder = ada, ou ada*
admin-audit-failures-only = Échecs uniquement
admin-audit-filter = Filtrer
admin-audit-when = Date
admin-audit-app = Application
admin-audit-from = Depuis
admin-audit-result = Résultat
admin-audit-ok = ok
admin-audit-failed = échec
admin-audit-none = Aucun événement ne correspond à ces filtres.
admin-audit-none-so-far = Aucun événement ne correspond à ces filtres parmi ceux parcourus jusqu’ici.
admin-audit-partial = Une recherche par motif parcourt le journal par portions : <strong>Plus anciens</strong> cherche plus loin.
admin-audit-pages = Pages du journal d’audit
admin-audit-newer = Plus récents
admin-audit-older = Plus anciens
admin-audit-unknown-action = Action inconnue « { $action } » : choisissez-en une dans la liste.
audit-action-sign_in = connexion
audit-action-admin_sign_in = connexion à l’administration
audit-action-admin_sign_out = déconnexion de l’administration
audit-action-app_created = application créée
audit-action-app_updated = application modifiée
audit-action-secret_rotated = secret renouvelé
audit-action-app_disabled = application désactivée
audit-action-app_enabled = application activée
audit-action-app_deleted = application supprimée
audit-action-token_issued = jeton émis
audit-action-token_refreshed = jeton actualisé
audit-action-token_revoked = jeton révoqué
audit-action-second_factor_enrolled = second facteur configuré
audit-action-second_factor_failed = échec du second facteur
audit-action-recovery_code_used = code de récupération utilisé
audit-action-second_factor_reset = second facteur réinitialisé
audit-action-lockout = verrouillage
audit-action-sign_out = déconnexion
audit-action-user_revoked = utilisateur déconnecté partout
audit-action-access_denied = accès refusé
audit-action-backchannel_logout = déconnexion envoyée à l’app
