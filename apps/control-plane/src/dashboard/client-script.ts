/**
 * The dashboard's only script (served as /dashboard/assets/dashboard.js, after the
 * @simplewebauthn/browser bundle that defines `SimpleWebAuthnBrowser`): the passkey ceremonies of
 * the sign-in, enrollment and passkeys pages. Plain ES2020, no build step.
 */
export const clientScript = `'use strict';
(function () {
  var csrfMeta = document.querySelector('meta[name="csrf-token"]');
  var csrf = csrfMeta ? csrfMeta.getAttribute('content') : null;
  function status(message, isError) {
    var el = document.querySelector('[data-status]');
    if (!el) return;
    el.textContent = message;
    el.className = isError ? 'status error' : 'status';
  }
  async function post(path, body) {
    var headers = { 'content-type': 'application/json' };
    if (csrf) headers['x-csrf-token'] = csrf;
    var response = await fetch(path, { method: 'POST', headers: headers, credentials: 'same-origin', body: JSON.stringify(body || {}) });
    var json = await response.json().catch(function () { return {}; });
    if (!response.ok) throw new Error((json.error && json.error.message) || response.statusText);
    return json;
  }
  var webauthn = window.SimpleWebAuthnBrowser;

  var login = document.querySelector('form[data-login]');
  if (login) login.addEventListener('submit', async function (event) {
    event.preventDefault();
    try {
      status('Waiting for your passkey…');
      var begin = await post('/v1/auth/login/begin', { email: login.email.value });
      var response = await webauthn.startAuthentication({ optionsJSON: begin.public_key });
      await post('/v1/auth/login/complete', { response: response });
      window.location.assign('/dashboard');
    } catch (error) {
      status('Sign-in failed: ' + error.message, true);
    }
  });

  var enroll = document.querySelector('[data-enroll]');
  if (enroll) enroll.addEventListener('click', async function () {
    var token = new URLSearchParams(window.location.hash.slice(1)).get('token');
    if (!token) return status('This link has no enrollment token: ask an administrator for a new link.', true);
    try {
      await post('/v1/auth/enroll', { token: token });
      window.location.replace('/dashboard/passkeys');
    } catch (error) {
      status(error.message, true);
    }
  });

  var register = document.querySelector('form[data-register]');
  if (register) register.addEventListener('submit', async function (event) {
    event.preventDefault();
    try {
      status('Follow your browser to create the passkey…');
      var begin = await post('/v1/auth/passkeys/register/begin');
      var response = await webauthn.startRegistration({ optionsJSON: begin.public_key });
      await post('/v1/auth/passkeys/register/complete', { name: register.name.value, response: response });
      window.location.reload();
    } catch (error) {
      status('Registration failed: ' + error.message, true);
    }
  });
})();
`;
