import { expect, fixture, html } from '@open-wc/testing';
import type { PayrollLink } from '../../src/index.js';
import { openLink } from '../../src/index.js';
import type { FakeOpenReport } from './fake-link/fake-link.js';
import { deepQueryAll, fakeLinkUrl, modalRoot } from './helpers.js';

/** What the button shows: its slot's default text (the element has no content of its own). */
const label = (el: PayrollLink) => el.shadowRoot!.querySelector('slot')!.textContent!.trim();

/** Opens the element's flow and reads the modal's words and the language the Link page was told. */
async function openAndRead(el: PayrollLink) {
  let told!: (language: unknown) => void;
  const toldLinkPage = new Promise((resolve) => (told = resolve));
  el.onEvent = ({ name, payload }) => {
    if (name === 'open') told((payload as FakeOpenReport).init.language);
  };
  await el.show();
  const root = modalRoot();
  const words = {
    close: root.querySelector('[part="close-button"]')!.getAttribute('aria-label'),
    loading: root.querySelector('[part="loading"]')!.textContent,
    title: root.querySelector('dialog')!.getAttribute('aria-label'),
    frameTitle: root.querySelector('iframe')!.title,
    language: await toldLinkPage,
  };
  const exit = new Promise((resolve) => el.addEventListener('link-exit', resolve, { once: true }));
  el.close();
  await exit;
  return words;
}

describe('the widget in English and Spanish', () => {
  afterEach(() => expect(deepQueryAll('iframe')).to.have.length(0));

  it('speaks Spanish under lang="es": the button, the modal, and the Link page is told', async () => {
    const page = await fixture<HTMLElement>(html`<div lang="es-MX">
      <payroll-link link-url=${await fakeLinkUrl('idle')} .fetchToken=${async () => `tok.${crypto.randomUUID()}`}></payroll-link>
    </div>`);
    const el = page.querySelector('payroll-link')!;
    expect(label(el)).to.equal('Conectar nómina');
    await expect(el).to.be.accessible();
    expect(await openAndRead(el)).to.deep.equal({
      close: 'Cerrar',
      loading: 'Cargando…',
      title: 'Conecta tu cuenta de nómina',
      frameTitle: 'Conecta tu cuenta de nómina',
      language: 'es-MX',
    });
  });

  it('finds lang across shadow roots, and falls back to English for a language it does not speak', async () => {
    const host = await fixture<HTMLElement>(html`<section lang="es"></section>`);
    const shadow = host.attachShadow({ mode: 'open' });
    shadow.innerHTML = '<payroll-link></payroll-link>';
    const inShadow = shadow.querySelector('payroll-link')!;
    await inShadow.updateComplete;
    expect(label(inShadow)).to.equal('Conectar nómina');
    const french = await fixture<HTMLElement>(html`<div lang="fr"><payroll-link></payroll-link></div>`);
    const el = french.querySelector('payroll-link')!;
    await el.updateComplete;
    expect(label(el)).to.equal('Connect payroll');
  });

  it('takes any word from the strings property, over the language', async () => {
    const page = await fixture<HTMLElement>(html`<div lang="es">
      <payroll-link link-url=${await fakeLinkUrl('idle')} .fetchToken=${async () => `tok.${crypto.randomUUID()}`} .strings=${{ connect: 'Vincular nómina', close: 'Salir' }}></payroll-link>
    </div>`);
    const el = page.querySelector('payroll-link')!;
    expect(label(el)).to.equal('Vincular nómina');
    const words = await openAndRead(el);
    expect(words.close).to.equal('Salir');
    expect(words.loading).to.equal('Cargando…');
  });

  it('openLink() follows <html lang>, or its language and strings options', async () => {
    const linkUrl = await fakeLinkUrl('idle');
    const previous = document.documentElement.lang;
    document.documentElement.lang = 'es';
    try {
      const link = openLink({ linkUrl, fetchToken: async () => `tok.${crypto.randomUUID()}` });
      await link.ready;
      expect(modalRoot().querySelector('[part="close-button"]')!.getAttribute('aria-label')).to.equal('Cerrar');
      link.close();
      await link.closed;
      const english = openLink({
        linkUrl,
        language: 'en-US',
        strings: { loading: 'One moment…' },
        fetchToken: async () => `tok.${crypto.randomUUID()}`,
      });
      await english.ready;
      expect(modalRoot().querySelector('[part="close-button"]')!.getAttribute('aria-label')).to.equal('Close');
      expect(modalRoot().querySelector('[part="loading"]')!.textContent).to.equal('One moment…');
      english.close();
      await english.closed;
    } finally {
      document.documentElement.lang = previous;
    }
  });
});

describe('what the Link page is told', () => {
  afterEach(() => expect(deepQueryAll('iframe')).to.have.length(0));

  it('a lang the contract does not accept is left out of the init message, and the session runs', async () => {
    let told!: (init: FakeOpenReport['init']) => void;
    const toldLinkPage = new Promise((resolve) => (told = resolve));
    const link = openLink({
      linkUrl: await fakeLinkUrl('idle'),
      language: 'x',
      fetchToken: async () => `tok.${crypto.randomUUID()}`,
      onEvent: ({ name, payload }) => {
        if (name === 'open') told((payload as FakeOpenReport).init);
      },
    });
    expect(await toldLinkPage).to.not.have.property('language');
    link.close();
    await link.closed;
  });
});
