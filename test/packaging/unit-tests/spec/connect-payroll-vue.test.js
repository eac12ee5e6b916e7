// An app's own unit test of a Vue 3 component that renders <payroll-link>, with payroll-link/testing's mockLink()
// (#52): the component is a render function (a template needs Vue's compiler, which an app's Vite plugin brings; the
// element and the kit see the same DOM either way). Run by Vitest (jsdom, happy-dom) and Jest (jsdom).
/* global afterEach, beforeEach, expect, it -- given by both runners */
import 'payroll-link';
import { findLinkButton, mockLink } from 'payroll-link/testing';
import { createApp, h, nextTick, ref } from 'vue';

/** The app's component: the element, and what the page says once the user has connected. */
const ConnectPayroll = {
  props: { userId: { type: String, required: true } },
  emits: ['connected'],
  setup(props, { emit }) {
    const status = ref('Not connected');
    return () => [
      h('payroll-link', {
        'token-url': '/api/link-token',
        'link-url': 'https://link.example.com/link',
        'end-user-id': props.userId,
        onLinkSuccess: (event) => emit('connected', event.detail),
        onLinkExit: (event) => (status.value = event.detail.reason === 'completed' ? 'Connected' : 'Not connected'),
      }),
      h('p', { class: 'status' }, status.value),
    ];
  },
};

let link;
let app;
beforeEach(() => {
  link = mockLink();
  document.body.innerHTML = '<div id="app"></div>';
});
afterEach(() => {
  app?.unmount();
  link.restore();
});

it('a Vue component: login, success and exit played into <payroll-link>, the component saves and says so', async () => {
  const saved = [];
  app = createApp(ConnectPayroll, { userId: 'u7', onConnected: (detail) => saved.push(detail) });
  app.mount('#app');
  (await findLinkButton()).click();
  const session = await link.opened();
  expect(session.options.endUserId).toBe('u7');
  link.login();
  const success = link.success();
  link.exit();
  await nextTick();
  expect(saved).toEqual([success]);
  expect(document.querySelector('.status').textContent).toBe('Connected');
});
