# Páginas de sso-bridge, español (trato de usted). Cada mensaje de en.ftl figura aquí, ningún
# otro, con los mismos valores ({ $name }) y el mismo marcado (<strong>, <em>, <code>, <span>,
# <br>); una comilla doble recta solo alrededor del id o la class de una etiqueta así.

language-name = Español
language-menu-label = Idioma
language-menu-change = Cambiar de idioma

## Compartidos por varias páginas

continue-to = para continuar a <strong>{ $app }</strong>
signed-in-as = Sesión iniciada como <strong>{ $username }</strong>
signin-username = Nombre de usuario
signin-password = Contraseña
signin-button = Iniciar sesión
otp-code-label = Código de su aplicación de autenticación
otp-verify = Verificar
otp-lost-phone = ¿Ha perdido su teléfono? Introduzca en su lugar uno de sus códigos de recuperación.
locked = Demasiados intentos. Espere unos minutos y vuelva a intentarlo.
signin-expired = Su inicio de sesión ha caducado. Vuelva a iniciar sesión.

## Inicio de sesión

signin-page-title = Iniciar sesión
signin-heading = Iniciar sesión
signin-hint = Use su cuenta del directorio de la empresa.
signin-missing = Introduzca su nombre de usuario y su contraseña.
signin-username-too-long = El nombre de usuario es demasiado largo.
signin-username-control = El nombre de usuario contiene un carácter que nunca aparece en los nombres.
signin-wrong = El nombre de usuario o la contraseña no son correctos.
account-disabled = Su cuenta está desactivada. El servicio de asistencia puede decirle el motivo y volver a activarla.
account-expired = Su cuenta ha caducado. Pida al servicio de asistencia que la prorrogue.
account-locked = Su cuenta está bloqueada, normalmente tras demasiadas contraseñas incorrectas. Espere un rato y vuelva a intentarlo, o pida al servicio de asistencia que la desbloquee.
account-password-expired = Su contraseña ha caducado. Cámbiela y luego inicie sesión con la nueva contraseña.
account-must-change-password = Debe cambiar su contraseña antes de poder iniciar sesión. Cámbiela y luego inicie sesión con la nueva contraseña.
help-desk-link = Contactar con el servicio de asistencia
change-password-link = Cambiar su contraseña
signin-passkey = Iniciar sesión con una llave de acceso
signin-passkey-hint = O, sin contraseña:
signin-passkey-refused = No se aceptó esa llave de acceso, o ninguna cuenta de aquí la usa.
signin-passkey-account-unusable = Esta cuenta no puede iniciar sesión ahora: está desactivada, caducada o ya no está en el directorio. El servicio de ayuda puede decirle por qué.

## Segundo factor

otp-page-title = Verificación en dos pasos
otp-heading = Verificación en dos pasos
otp-wrong = Ese código no es correcto. Introduzca el código actual de su aplicación de autenticación o un código de recuperación.
otp-replayed = Ese código ya se ha utilizado. Espere al siguiente código e introdúzcalo.

enrol-page-title = Configurar la verificación en dos pasos
enrol-heading = Configurar la verificación en dos pasos
enrol-scan = Escanee este código con una aplicación de autenticación (por ejemplo, FreeOTP, Aegis, Google o Microsoft Authenticator):
enrol-qr-alt = Código QR con el secreto de su aplicación de autenticación
enrol-type-key = O escriba esta clave a mano en la aplicación:
enrol-code-label = Introduzca el código de 6 dígitos que muestra la aplicación
enrol-confirm = Confirmar
enrol-wrong = Ese código no es correcto. Compruebe que la aplicación muestra esta cuenta e introduzca su código actual.
enrol-renewed = La configuración tardó demasiado y se ha renovado. Escanee el nuevo código.

codes-page-title = Códigos de recuperación
codes-save-heading = Guarde sus códigos de recuperación
codes-save-text = Cada código le permite iniciar sesión una vez si pierde su aplicación de autenticación. Solo se muestran ahora: imprímalos o guárdelos en un gestor de contraseñas.
codes-used-heading = Ha utilizado un código de recuperación
codes-left = Le { $left ->
        [one] queda
       *[other] quedan
    } <strong id="codes-left">{ $left }</strong> { $left ->
        [one] código de recuperación
       *[other] códigos de recuperación
    }.
codes-lost = Si ha perdido su aplicación de autenticación, configure una nueva ahora: sustituye a la anterior y le da códigos de recuperación nuevos.
codes-lost-link = Configurar una nueva aplicación de autenticación
codes-continue = Continuar
passkey-use = Usar su llave de acceso
passkey-second-factor-hint = Confirme con su llave de acceso: su dispositivo puede pedirle su PIN, su huella o su cara.
passkey-failed = No se usó la llave de acceso. Inténtelo de nuevo o elija otra forma.
passkey-refused = No se aceptó esa llave de acceso. Inténtelo de nuevo o use otra forma.
passkey-expired = La solicitud de llave de acceso ha caducado. Inténtelo de nuevo.
passkey-no-answer = No llegó ninguna respuesta de la llave de acceso. Inténtelo de nuevo.
passkey-too-large = La respuesta de la llave de acceso es demasiado grande para aceptarla.
passkey-bad-name = Dé a la llave de acceso un nombre de 1 a 64 caracteres.
passkey-duplicate = Esta llave de acceso ya está registrada.
passkey-full = Ya tiene tantas llaves de acceso como se permiten (10). Elimine una primero.
passkey-needs-script = Las llaves de acceso necesitan JavaScript, que está desactivado en este navegador.
enrol-passkey-heading = Añadir una llave de acceso
enrol-passkey-text = Una llave de acceso se queda en este dispositivo o en su teléfono y se desbloquea con su PIN, su huella o su cara. También le permite iniciar sesión sin contraseña.
enrol-passkey-name = Nombre de la llave de acceso
enrol-passkey-name-hint = Por ejemplo: portátil del trabajo
enrol-passkey-add = Añadir una llave de acceso

## Consentimiento

consent-page-title = Permitir el acceso
consent-heading = <span class="app-name">{ $app }</span> quiere acceder a su cuenta
consent-will-read = Si lo permite, { $app } podrá leer:
consent-no-scopes = Solo que ha iniciado sesión.
consent-destination = En cualquier caso, a continuación se le enviará a <strong>{ $host }</strong>.
consent-allow = Permitir
consent-deny = Denegar
consent-enrol-link = Proteja su cuenta con la verificación en dos pasos
scope-openid = Saber quién es usted (su identificador de usuario)
scope-profile = Leer su perfil: nombre, número de empleado, puesto, departamento y teléfono
scope-email = Leer su dirección de correo electrónico
scope-role = Leer su función en la empresa
scope-groups = Leer los grupos de los que es miembro

## Cierre de sesión

logout-page-title = Cerrar sesión
logout-done-heading = Ha cerrado la sesión
logout-done-text = Su sesión de inicio de sesión único ha terminado. Las aplicaciones que ha usado pueden mantener su propia sesión hasta que también cierre sesión en ellas.
logout-confirm-heading = ¿Cerrar sesión?
logout-app-asks = <strong>{ $app }</strong> solicita terminar su sesión de inicio de sesión único.
logout-end-session = Terminar su sesión de inicio de sesión único en este navegador.
logout-button = Cerrar sesión
logout-stay = Para mantener la sesión iniciada, cierre esta página.

## Páginas de error

error-status = Error { $status }
error-quote-reference = Si contacta con el servicio de asistencia, indique esta referencia:
error-sign-in-first-title = Es necesario iniciar sesión
error-sign-in-first-message = Inicie sesión para ver esta página.
error-expired-title = Inicio de sesión caducado
error-expired-message = Esta página de inicio de sesión ha caducado o ya se ha utilizado. Vuelva a la aplicación y empiece de nuevo.
error-forged-title = Solicitud rechazada
error-forged-message = Este formulario no se envió desde la página de inicio de sesión que abrió este navegador. Vuelva a la aplicación y empiece de nuevo.
error-busy-title = El servicio de inicio de sesión está saturado
error-busy-message = Hay demasiados inicios de sesión en curso en este momento. No se ha perdido nada; vuelva a intentarlo dentro de unos minutos.
error-too-many-waiting-title = Demasiados inicios de sesión en curso
error-too-many-waiting-message = Demasiados inicios de sesión desde su red están pendientes de terminar. Termine o cierre las páginas de inicio de sesión que tenga abiertas, o vuelva a intentarlo dentro de unos minutos.
error-store-title = Inicio de sesión no disponible temporalmente
error-store-message = El servicio de inicio de sesión no puede acceder a su almacén de sesiones en este momento. No se ha perdido nada; vuelva a intentarlo dentro de un minuto.
error-directory-title = Directorio no disponible
error-directory-message = El directorio de la empresa no responde, por lo que ahora no se puede comprobar su inicio de sesión. Vuelva a intentarlo dentro de unos minutos.
error-unusable-account-title = Esta cuenta no puede iniciar sesión
error-unusable-account-message = A su cuenta del directorio le faltan datos que el inicio de sesión necesita. Contacte con el servicio de asistencia informática.
error-second-factor-title = Verificación en dos pasos no disponible
error-second-factor-message = Ahora no se puede comprobar su segundo factor. Contacte con el servicio de asistencia informática e indique la referencia que aparece abajo.
error-no-access-title = Sin acceso a { $app }
error-no-access-message = Su cuenta no le da acceso a { $app }: la aplicación está reservada a algunos roles o grupos. Sigue con la sesión iniciada en sus otras aplicaciones. Si necesita { $app }, pida acceso al equipo que la gestiona.
error-no-access-back = Volver a { $app }
error-admin-forbidden-title = Solo para superadministradores
error-admin-forbidden-message = Las aplicaciones conectadas las gestionan los superadministradores. Su cuenta puede iniciar sesión en las aplicaciones, pero no administrarlas. Pida a un superadministrador que registre o modifique la aplicación que necesite.
error-render-title = Algo ha salido mal
error-render-message = No se ha podido mostrar esta página. Vuelva a intentarlo.
error-bad-form-title = Formulario no válido
error-form-unreadable = No se ha podido leer el formulario. Vuelva atrás e inténtelo de nuevo.
error-not-utf8 = La solicitud no es UTF-8 válido.
error-decision = El formulario debe enviar decision=approve o decision=deny.
error-language-unknown = El menú de idiomas envió un idioma en el que estas páginas no están disponibles.
error-not-found-title = No encontrado
error-invalid-request-title = Solicitud no válida
error-request-too-long = La solicitud supera los { $max } bytes. No se ha devuelto nada a la aplicación.
error-request-malformed = No se ha podido leer la solicitud: { $detail }. No se ha devuelto nada a la aplicación.
error-no-client-id = La solicitud no indica ninguna aplicación (falta client_id).
error-no-redirect-uri = La solicitud no indica ninguna dirección de retorno (falta redirect_uri).
error-unknown-app-title = Aplicación desconocida
error-unknown-app-message = La aplicación que le ha enviado aquí no está registrada en el servicio de inicio de sesión o se ha desactivado. Contacte con el equipo responsable de la aplicación.
error-app-gone-message = La aplicación ya no está registrada en el servicio de inicio de sesión.
error-unregistered-redirect-title = Dirección de retorno no registrada
error-unregistered-redirect-message = La aplicación pidió devolverle a una dirección que no está registrada para ella. No se ha enviado nada allí. Los desarrolladores de la aplicación deben registrar la URL de retorno exacta (recibida: { $uri }).
error-logout-title = Solicitud de cierre de sesión no válida
error-logout-malformed = Error en la solicitud: { $detail }. No se ha cambiado nada.
error-logout-foreign-hint = El id_token_hint no lo emitió este servicio de inicio de sesión. No se ha cambiado nada.
error-logout-client-mismatch = client_id no coincide con el id_token_hint. No se ha cambiado nada.
error-logout-unknown-app = La aplicación que le ha enviado aquí no está registrada en el servicio de inicio de sesión o se ha desactivado.
error-logout-unregistered-return = La aplicación pidió devolverle a una dirección que no está registrada para el cierre de sesión (recibida: { $uri }). No se ha cambiado nada.
error-logout-return-needs-app = Una dirección de retorno necesita id_token_hint o client_id para saber qué aplicación la solicita. No se ha cambiado nada.

## Llaves de acceso

audit-action-passkey_added = llave de acceso añadida
account-passkeys-heading = Llaves de acceso
account-passkey-added = Añadida
account-passkey-last-used = Último uso
account-passkey-never-used = aún no usada
account-passkeys-none = Ninguna todavía.
account-passkey-add = Añadir una llave de acceso
account-passkey-new-name = Nombre
account-passkey-rename = Cambiar el nombre
account-passkey-remove = Eliminar esta llave de acceso
account-passkey-added-notice = Se ha añadido su nueva llave de acceso.
account-passkey-renamed = Se ha cambiado el nombre de su llave de acceso.
account-passkey-removed = Se ha eliminado su llave de acceso.
account-passkey-required = Su organización exige un segundo paso al iniciar sesión y este es el último que le queda: añada otra llave de acceso o una aplicación de autenticación antes de eliminarla.
account-passkey-add-page-title = Añadir una llave de acceso
account-passkey-add-heading = Añadir una llave de acceso
account-reauth-passkey-hint = Inició sesión con una llave de acceso: úsela de nuevo para confirmar.
audit-action-passkey_removed = llave de acceso eliminada

## Página de la cuenta

account-page-title = Su cuenta
account-heading = Su cuenta
account-link = Su cuenta: aplicaciones y sesiones
account-apps-heading = Aplicaciones
account-app-scopes = Puede leer
account-app-first-used = Primer uso
account-app-last-used = Último uso
account-not-noted = no registrado
account-app-remove = Quitar { $app }
account-apps-none = Todavía no ha dado acceso a ninguna aplicación.
account-apps-hint = Quitar una aplicación cierra su sesión en ella y olvida su aprobación: la próxima vez se la volverá a pedir.
account-sessions-heading = Dónde tiene la sesión iniciada
account-this-browser = este navegador
account-session-address = Dirección
account-session-signed-in = Inicio de sesión
account-session-last-seen = Última actividad
account-session-end = Cerrar sesión allí
account-session-end-this = Cerrar sesión aquí
account-sessions-end-all = Cerrar sesión en todos los demás sitios
account-device = { $browser } en { $system }
account-device-browser = { $browser }
account-device-system = Un navegador en { $system }
account-device-unknown = Navegador desconocido
account-app-removed = Se ha quitado la aplicación: su sesión en ella se ha cerrado y volverá a pedirle su aprobación.
account-session-ended = Esa sesión ha terminado.
account-sessions-ended = { $count ->
        [one] Ha terminado { $count } otra sesión.
       *[other] Han terminado { $count } otras sesiones.
    }
account-not-theirs-title = No encontrado
account-not-theirs-message = Esa aplicación o sesión no es suya, o ya ha terminado. No se ha cambiado nada.
account-signin-page-title = Iniciar sesión en su cuenta
account-signin-lede = Inicie sesión con su cuenta de la empresa para ver sus aplicaciones y dónde tiene la sesión iniciada.
account-signin-otp-lede = Introduzca el código de su aplicación de autenticación.
account-signin-start-over = Empezar de nuevo
account-wrong-code = Ese código no es correcto. Inténtelo de nuevo.
account-two-step-heading = Verificación en dos pasos
account-two-step-required = Su rol exige un segundo paso al iniciar sesión.
account-authenticator-heading = Aplicación de autenticación
account-authenticator-since = Configurada el { $at }.
account-authenticator-none = No configurada.
account-recovery-heading = Códigos de recuperación
account-recovery-left = { $left ->
        [one] Queda { $left } código.
       *[other] Quedan { $left } códigos.
    }
account-recovery-none = Ninguno: vienen con una aplicación de autenticación.
account-activity-heading = Actividad reciente
account-activity-when = Cuándo
account-activity-what = Qué
account-activity-app = Aplicación
account-activity-outcome = Resultado
account-activity-ok = hecho
account-activity-failed = rechazado
account-activity-none = Todavía no hay nada registrado.
audit-action-app_removed = aplicación quitada por la persona
audit-action-session_ended = sesión terminada por la persona
account-enrol-lede = para continuar a <strong>su cuenta</strong>
account-authenticator-set-up = Configurar una aplicación de autenticación
account-authenticator-replace = Sustituir por otra aplicación u otro teléfono
account-authenticator-replace-hint = Su aplicación actual sigue funcionando hasta que la nueva haya mostrado su primer código.
account-authenticator-remove = Quitar la aplicación de autenticación
account-authenticator-removed = Se han quitado su aplicación de autenticación y sus códigos de recuperación.
account-authenticator-required = Su rol exige un segundo paso al iniciar sesión, así que la aplicación de autenticación no se puede quitar. Puede sustituirla por otra.
account-recovery-renew = Obtener nuevos códigos de recuperación
account-recovery-renew-hint = Los nuevos códigos se muestran una sola vez; los anteriores dejan de funcionar.
account-reauth-page-title = Confirme que es usted
account-reauth-heading = Confirme que es usted
account-reauth-lede = Inició sesión hace más de 5 minutos. Vuelva a introducir su contraseña antes de cambiar cómo inicia sesión.
account-reauth-button = Confirmar
account-reauth-cancel = Volver a su cuenta
account-reauth-wrong = La contraseña no es correcta. Inténtelo de nuevo.
audit-action-second_factor_removed = aplicación de autenticación quitada por la persona
audit-action-recovery_codes_renewed = nuevos códigos de recuperación
audit-action-passkey_renamed = llave de acceso renombrada

## Administración

admin-nav-label = Administración
admin-nav-home = Identidad y SSO
admin-nav-apps = Aplicaciones conectadas
admin-nav-users = Usuarios
admin-nav-audit = Registro de auditoría
admin-nav-sign-out = Cerrar sesión

admin-signin-page-title = Acceso a la administración
admin-signin-lede = Administración de identidad y SSO. Inicie sesión con su cuenta del directorio (solo superadministradores).
admin-signin-otp-lede = Verificación en dos pasos: introduzca el código de su aplicación de autenticación.
admin-signin-start-over = Empezar de nuevo
admin-signin-idle = Por seguridad, la administración cierra su sesión tras { $minutes ->
        [one] { $minutes } minuto
       *[other] { $minutes } minutos
    } sin actividad.
admin-enrol-first = Su cuenta debe configurar la verificación en dos pasos antes de poder administrar. Inicie sesión en cualquier aplicación conectada en este navegador para configurarla, o ejecute `sso-bridge users enrol-mfa`.
admin-wrong-code = Ese código no es correcto o ya se ha utilizado. Introduzca el código actual de su aplicación de autenticación o un código de recuperación.

admin-apps-heading = Aplicaciones conectadas
admin-apps-search-label = Buscar por nombre o identificador de cliente
admin-apps-search = Buscar
admin-apps-caption = { $shown } de { $total ->
        [one] { $total } aplicación
       *[other] { $total } aplicaciones
    }
admin-apps-status = Estado
admin-apps-created = Creada
admin-apps-no-match = Ninguna aplicación coincide con «{ $query }».
admin-apps-show-all = Mostrar todas las aplicaciones
admin-apps-none = Aún no hay aplicaciones registradas. Cuando el responsable de una aplicación le envíe su URL de retorno, registre la aplicación para darle un identificador de cliente y un secreto.
admin-apps-none-link = Registrar la primera aplicación
admin-name = Nombre
admin-client-id = Identificador de cliente
admin-client-secret = Secreto de cliente
admin-redirect-uris = URI de redirección
admin-post-logout-uris = URI de redirección tras cerrar sesión
admin-optional = (opcional)
admin-type = Tipo
admin-type-public-short = pública
admin-type-confidential-short = confidencial
admin-enabled = activada
admin-disabled = desactivada
admin-last-used = Último uso
admin-never = nunca
admin-require-pkce = Exigir PKCE
admin-may-introspect = Servidor de recursos: puede inspeccionar los tokens de otras aplicaciones
admin-alg-label = Algoritmo de firma de los id_tokens
admin-alg-default = Predeterminado del servicio ({ $alg })
admin-alg-es256 = ES256 (ECDSA P-256)
admin-alg-rs256 = RS256 (RSA)
admin-notice-updated = Cambios guardados.
admin-notice-unchanged = No se ha cambiado nada.
admin-notice-disabled = Aplicación desactivada: se rechazan sus inicios de sesión y sus solicitudes de tokens, y se han revocado todos sus tokens.
admin-notice-enabled = Aplicación activada: puede volver a iniciar la sesión del personal.
admin-notice-deleted = Aplicación eliminada: se han revocado todos sus códigos y tokens.

admin-register-heading = Registrar una aplicación
admin-register-lede = El responsable de la aplicación le indica su nombre y sus URL de retorno. Usted le entrega el identificador de cliente y, para una aplicación confidencial, el secreto.
admin-register-refused = No se ha registrado la aplicación:
admin-name-hint = Se muestra al personal en la página de consentimiento.
admin-register-uris-hint = Una por línea, comparadas de forma exacta. https, o http solo para 127.0.0.1, [::1] y localhost; una aplicación nativa puede usar su propio esquema, como <code>com.example.app:/callback</code>.
admin-register-logout-hint = Adónde puede enviar la aplicación a las personas después de cerrar su sesión (cierre de sesión de OpenID Connect). Una por línea, con las mismas reglas que las URI de redirección.
admin-register-confidential = Confidencial: una aplicación del lado del servidor que guarda un secreto
admin-register-public = Pública: una aplicación nativa o móvil, sin secreto y con PKCE obligatorio
admin-register-pkce-hint = Recomendado. Desactívelo solo para una aplicación confidencial cuya biblioteca no admita PKCE.
admin-register-introspect-hint = Para una API que comprueba los tokens que el personal trae de otras aplicaciones. Sin esta opción, la introspección de una aplicación solo responde sobre sus propios tokens. Solo para aplicaciones confidenciales.
admin-register-alg-hint = Lo que espera la biblioteca de la aplicación (<code>id_token_signed_response_alg</code>). ES256 le cuesta al servicio mucho menos por token que RS256; la mayoría de las bibliotecas aceptan ambos.
admin-register-button = Registrar

admin-error-bad-name = El nombre debe tener entre 1 y 100 caracteres.
admin-error-no-redirect-uri = Se necesita al menos una URI de redirección.
admin-error-too-many-uris = Cada lista admite como máximo { $max } URI.
admin-error-not-found = No hay ninguna aplicación con el client_id `{ $id }`. Puede que se haya eliminado.
admin-error-public-app = Es una aplicación pública: no tiene ningún secreto que renovar.
admin-error-public-introspection = Una aplicación pública no puede inspeccionar tokens: la introspección necesita un secreto de cliente.
admin-error-unsupported-alg = Aquí no se pueden firmar los id_tokens con { $alg }: este servicio solo tiene una clave de firma para { $supported }. Para ofrecer { $alg }, indique una clave { $alg } en oidc.extra_signing_key_files.
admin-error-busy = La aplicación cambió continuamente mientras se hacía este cambio; vuelva a intentarlo.
admin-error-unknown-role = `{ $role }` no es uno de los siete roles (employee, manager, hr, finance, ceo, admin, superadmin).
admin-error-bad-group = Indique cada grupo por su nombre tal como lo muestra el claim groups, o por su DN, en { $max } bytes como máximo.
admin-error-too-many-listed = Se pueden indicar como máximo { $max } roles, grupos u orígenes web.
admin-error-bad-origin = `{ $origin }` no es un origen web: indique solo esquema://host[:puerto] (http o https; sin ruta, sin *, sin null).
admin-error-bad-logout-uri = `{ $uri }` no puede recibir cierres de sesión back-channel: indique una URL https (http solo a localhost, 127.0.0.1 o [::1]), sin fragmento.
admin-uri-not-absolute = `{ $uri }` no es una URL absoluta.
admin-uri-fragment = `{ $uri }` tiene un fragmento (#...), que una URI de redirección no debe tener.
admin-uri-wildcard = `{ $uri }` contiene un comodín; registre cada URL de retorno de forma exacta.
admin-uri-scheme = `{ $uri }` usa un esquema que nunca se permite.
admin-uri-https = `{ $uri }` debe usar https (http simple solo se permite para localhost / 127.0.0.1 / [::1]).
admin-uri-too-long = `{ $uri }…` supera los { $max } bytes.

admin-app-title = { $name }
admin-app-unchanged = No se ha cambiado nada:
admin-app-type-public = pública (sin secreto, PKCE obligatorio)
admin-app-type-confidential-pkce = confidencial, PKCE obligatorio
admin-app-type-confidential = confidencial, PKCE opcional
admin-app-type-resource-server = ; servidor de recursos: puede inspeccionar los tokens de otras aplicaciones
admin-app-id-tokens = id_tokens
admin-app-signed-with = firmados con { $alg }
admin-app-signed-default = firmados con el predeterminado del servicio
admin-app-registered = Registrada
admin-app-registered-by = por { $user }, { $at }
admin-who-may = Quién puede usarla
admin-who-everyone = Todos
admin-who-roles = Roles:
admin-who-groups = Grupos:
admin-access-hint = Sin ningún rol marcado ni grupo indicado, todos pueden usarla. Si no, una persona puede usar la aplicación cuando su rol está marcado o es miembro de un grupo indicado (cuentan los grupos anidados).
admin-allowed-groups = Grupos que pueden usarla
admin-allowed-groups-hint = Uno por línea: el nombre de un grupo tal como lo muestra el claim <code>groups</code> (<code>finance-team</code>), o su DN completo cuando varios grupos se llaman igual.
admin-web-origins = Orígenes web
admin-web-origins-hint = Para una aplicación de navegador: los orígenes (<code>https://app.example.com</code>) cuyos scripts pueden llamar a los endpoints de token, userinfo y revocación, además de los de las URI de redirección. Uno por línea.
admin-backchannel-logout = Cierre de sesión back-channel
admin-backchannel-logout-uri = URI de cierre de sesión back-channel
admin-backchannel-logout-hint = Dónde se avisa a la aplicación en el momento en que alguien cierra sesión o se le cierra (OpenID Connect Back-Channel Logout). https, o http a esta máquina.
admin-app-edit = Editar
admin-app-uris-hint = Una por línea, comparadas de forma exacta.
admin-app-logout-hint = Adónde puede enviar la aplicación a las personas después de cerrar su sesión. Una por línea.
admin-app-alg-hint = Se aplica a partir del próximo token de la aplicación; su biblioteca debe aceptarlo.
admin-app-introspect-hint = Sin esta opción, la introspección de la aplicación solo responde sobre sus propios tokens.
admin-app-save = Guardar cambios
admin-app-actions = Credenciales y acceso
admin-app-rotate = Renovar el secreto
admin-app-rotate-hint = Emite un secreto nuevo; el actual deja de funcionar de inmediato.
admin-app-disable = Desactivar
admin-app-disable-hint = Rechaza sus inicios de sesión y sus solicitudes de tokens y revoca todos sus tokens.
admin-app-enable = Activar
admin-app-enable-hint = Le permite volver a iniciar la sesión del personal.
admin-app-delete = Eliminar…
admin-app-delete-hint = Pide confirmación primero.
admin-app-in-audit-log = Esta aplicación en el registro de auditoría
admin-doctor-heading = Solicitudes fallidas recientes
admin-doctor-lede = Las últimas solicitudes rechazadas de la aplicación, de la más reciente a la más antigua: indique a sus desarrolladores qué deben corregir. Las solicitudes marcadas como <em>no verificadas</em> no demostraron venir de la aplicación (cualquiera puede enviarlas, nombrando cualquier aplicación); el texto entre comillas es lo que envió esa solicitud.
admin-doctor-verified = de la aplicación
admin-doctor-sent-by-us = enviado por sso-bridge
admin-doctor-unverified = no verificada
admin-doctor-unverified-title = No se ha demostrado que venga de la aplicación: cualquiera puede enviar esta solicitud
admin-doctor-none = Ninguna en los últimos 7 días.

admin-secret-registered = { $app } está registrada
admin-secret-new = Nuevo secreto para { $app }
admin-secret-hand-over = Entregue estas credenciales a los desarrolladores de <strong>{ $app }</strong>.
admin-secret-once = El secreto se muestra <strong>solo en esta página</strong>: se guarda como resumen criptográfico y no se puede volver a mostrar.
admin-secret-copy = Copiar
admin-secret-copied = Copiado
admin-secret-copy-by-hand = Pulse Ctrl+C para copiar
admin-secret-copy-hint = Cópielo ahora (o selecciónelo: Ctrl+A, Ctrl+C en el campo).
admin-secret-public = Es una aplicación pública: no tiene secreto y debe usar PKCE.
admin-secret-done = Hecho: ir a la aplicación

admin-delete-page-title = Eliminar la aplicación
admin-delete-heading = ¿Eliminar { $app }?
admin-delete-warning = Esta acción no se puede deshacer. El identificador de cliente de la aplicación deja de funcionar y se revocan todos los códigos de inicio de sesión y tokens que tiene: sus usuarios salen de ella de inmediato.
admin-delete-button = Eliminar la aplicación
admin-delete-keep = Conservarla

admin-users-page-title = Usuarios
admin-users-heading = Usuarios
admin-users-lookup-heading = Consultar una persona
admin-users-lookup-lede = Qué tipos de segundo factor tiene una persona. Los formularios de abajo se aplican entonces a ella.
admin-users-lookup-button = Consultar
admin-users-factors-of = Segundos factores de { $user }
admin-users-authenticator-yes = Sí, configurada el { $at }
admin-users-authenticator-no = No
admin-users-recovery-none = Ninguno
admin-users-passkeys-count = { $count ->
    [one] 1 llave de acceso:
   *[other] { $count } llaves de acceso:
}
admin-users-passkeys-none = Ninguna
admin-users-reset-heading = Verificación en dos pasos
admin-users-reset-lede = Restablezca la verificación en dos pasos de una persona que haya perdido su aplicación de autenticación y sus códigos de recuperación. Configurará una nueva en su próximo inicio de sesión. Compruebe primero quién lo pide: quien tenga la contraseña configurará después la nueva aplicación de autenticación.
admin-users-reset-button = Quitar la verificación en dos pasos
admin-users-revoke-heading = Cerrar sesión en todas partes
admin-users-revoke-lede = Termina todas las sesiones de inicio de sesión de una persona y revoca todos los códigos, tokens de acceso y tokens de actualización de todas las aplicaciones: cada aplicación le pedirá que vuelva a iniciar sesión en su próxima solicitud. Para quien deja la empresa, o un dispositivo perdido o robado. Indíquela por el nombre de usuario con el que inicia sesión; a quien ya se haya eliminado del directorio, por su identificador de usuario.
admin-users-revoke-button = Cerrar sesión en todas partes
admin-users-reset-empty = Introduzca el nombre de usuario cuya verificación en dos pasos desea quitar.
admin-users-reset-none = { $user } no tiene configurada la verificación en dos pasos: no hay nada que quitar.
admin-users-revoke-empty = Introduzca el nombre de usuario cuya sesión desea cerrar en todas partes.
admin-users-reset-done = Se ha quitado la verificación en dos pasos de { $user }: configurará una nueva aplicación de autenticación en su próximo inicio de sesión. { $admin ->
        [one] { $admin } acceso a la administración terminado.
       *[other] { $admin } accesos a la administración terminados.
    }
admin-users-revoked = Se ha cerrado la sesión de { $user } en todas partes: { $sessions ->
        [one] { $sessions } sesión terminada
       *[other] { $sessions } sesiones terminadas
    }, { $grants ->
        [one] { $grants } autorización revocada
       *[other] { $grants } autorizaciones revocadas
    }, { $admin ->
        [one] { $admin } acceso a la administración terminado
       *[other] { $admin } accesos a la administración terminados
    }. Cada aplicación le pedirá que vuelva a iniciar sesión.

admin-audit-lede = Acciones de administración, inicios de sesión y tokens emitidos o revocados, del más reciente al más antiguo. Nunca se registra ningún secreto ni token. El filtro de usuario admite un nombre completo (sin distinguir mayúsculas) o un patrón en el que <code>*</code> representa cualquier texto.
admin-audit-action = Acción
admin-audit-any-action = Cualquier acción
admin-audit-user = Usuario
admin-audit-user-placeholder = ada, o ada*
admin-audit-failures-only = Solo fallos
admin-audit-filter = Filtrar
admin-audit-when = Cuándo
admin-audit-app = Aplicación
admin-audit-from = Desde
admin-audit-result = Resultado
admin-audit-ok = correcto
admin-audit-failed = fallido
admin-audit-none = Ningún evento coincide con estos filtros.
admin-audit-none-so-far = Ningún evento coincide con estos filtros entre los revisados hasta ahora.
admin-audit-partial = Una búsqueda por patrón revisa el registro por partes: <strong>Anteriores</strong> busca más atrás.
admin-audit-pages = Páginas del registro de auditoría
admin-audit-newer = Posteriores
admin-audit-older = Anteriores
admin-audit-unknown-action = Acción desconocida «{ $action }»: elija una de la lista.
audit-action-sign_in = inicio de sesión
audit-action-admin_sign_in = acceso a la administración
audit-action-admin_sign_out = salida de la administración
audit-action-app_created = aplicación creada
audit-action-app_updated = aplicación modificada
audit-action-secret_rotated = secreto renovado
audit-action-app_disabled = aplicación desactivada
audit-action-app_enabled = aplicación activada
audit-action-app_deleted = aplicación eliminada
audit-action-token_issued = token emitido
audit-action-token_refreshed = token renovado
audit-action-token_revoked = token revocado
audit-action-second_factor_enrolled = segundo factor configurado
audit-action-second_factor_failed = segundo factor fallido
audit-action-recovery_code_used = código de recuperación utilizado
audit-action-second_factor_reset = segundo factor restablecido
audit-action-lockout = bloqueo
audit-action-sign_out = cierre de sesión
audit-action-user_revoked = usuario desconectado en todas partes
audit-action-access_denied = acceso denegado
audit-action-backchannel_logout = cierre de sesión enviado a la app
