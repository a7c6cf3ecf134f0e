// The passkey ceremonies, the only script of the sign-in pages. A form marked data-passkey
// ("create" or "get") holds the options from the server in data-passkey-options; its button
// stays hidden without this script or without WebAuthn, and every other form works without
// it. On submit the browser asks the authenticator, the answer goes into the hidden input
// "credential" as JSON, and the form is posted as any other. Messages come from the page
// (data-passkey-failed), in its language.
'use strict';
(() => {
  const toBytes = (text) => {
    const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64 + '==='.slice((base64.length + 3) % 4);
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  };
  const toText = (buffer) => {
    if (!buffer) return null;
    let binary = '';
    new Uint8Array(buffer).forEach((b) => { binary += String.fromCharCode(b); });
    return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  };
  // The server leaves out what it does not ask for, but a null would be refused.
  const withoutNulls = (value) => {
    if (Array.isArray(value)) return value.map(withoutNulls);
    if (value && typeof value === 'object') {
      const out = {};
      Object.entries(value).forEach(([k, v]) => { if (v !== null) out[k] = withoutNulls(v); });
      return out;
    }
    return value;
  };
  const withIds = (list) => (list || []).map((c) => ({ ...c, id: toBytes(c.id) }));

  const create = async (options) => {
    const publicKey = withoutNulls(options);
    publicKey.challenge = toBytes(publicKey.challenge);
    publicKey.user = { ...publicKey.user, id: toBytes(publicKey.user.id) };
    publicKey.excludeCredentials = withIds(publicKey.excludeCredentials);
    const credential = await navigator.credentials.create({ publicKey });
    const response = credential.response;
    return {
      id: credential.id,
      rawId: toText(credential.rawId),
      type: credential.type,
      response: {
        attestationObject: toText(response.attestationObject),
        clientDataJSON: toText(response.clientDataJSON),
        transports: response.getTransports ? response.getTransports() : undefined,
      },
      extensions: credential.getClientExtensionResults(),
    };
  };

  const get = async (options) => {
    const publicKey = withoutNulls(options);
    publicKey.challenge = toBytes(publicKey.challenge);
    publicKey.allowCredentials = withIds(publicKey.allowCredentials);
    const credential = await navigator.credentials.get({ publicKey });
    const response = credential.response;
    return {
      id: credential.id,
      rawId: toText(credential.rawId),
      type: credential.type,
      response: {
        authenticatorData: toText(response.authenticatorData),
        clientDataJSON: toText(response.clientDataJSON),
        signature: toText(response.signature),
        userHandle: toText(response.userHandle),
      },
      extensions: credential.getClientExtensionResults(),
    };
  };

  document.querySelectorAll('form[data-passkey]').forEach((form) => {
    const button = form.querySelector('[data-passkey-button]');
    const answer = form.elements.namedItem('credential');
    const status = form.querySelector('[data-passkey-status]');
    if (!button || !answer || !window.PublicKeyCredential || !navigator.credentials) return;
    button.hidden = false;
    form.hidden = false;
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      button.disabled = true;
      try {
        const options = JSON.parse(form.dataset.passkeyOptions);
        const ceremony = form.dataset.passkey === 'create' ? create : get;
        answer.value = JSON.stringify(await ceremony(options));
        form.submit();
      } catch (error) {
        button.disabled = false;
        if (status) {
          status.textContent = form.dataset.passkeyFailed;
          status.hidden = false;
        }
      }
    });
  });
})();
