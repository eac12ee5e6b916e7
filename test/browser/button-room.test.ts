/**
 * A server-rendered page with the modal's button moves nothing below it when the element's script comes late
 * (issue 41): `payroll-link/styles.css` gives the undefined element the upgraded button's height, in the page's
 * font and with the button's padding, themed or not. The page is a same-origin frame of the test page (its own
 * document, so the element is undefined when it first paints); the script is added to it afterwards.
 */
import { expect } from '@open-wc/testing';
import type { PayrollLink } from '../../src/index.js';
import { fakeTokenUrl } from './helpers.js';
import { addElementScript, nextFrames, serverRenderedPage } from './server-rendered-page.js';

/**
 * The buttons a page may render, each alone on its line with the page's content under it: a name, the element's
 * attributes, its own label, and how far (px) its room may be off. The page sets its line height, as most do
 * (1.5); with `line-height: normal` the line is the font's own, and the button's (weight 600) may be 1 px taller
 * than the room's (the page's weight) where the bold face's metrics differ (Firefox with Debian's fonts): the
 * weight would cost 7 B more than the rule's 60 B allow (see src/element/styles.css).
 */
const CASES = [
  { name: 'the default button', attributes: '' },
  { name: 'a label of its own', attributes: '', label: 'Link my payroll' },
  { name: 'a Spanish page', attributes: 'lang="es"' },
  { name: 'a themed padding in a larger font', attributes: 'class="roomy"' },
  { name: 'disabled', attributes: 'disabled' },
  { name: 'line-height: normal', attributes: 'class="normal"', offBy: 1 },
  { name: 'hidden', attributes: 'hidden' },
];

describe('modal, server-rendered: the button holds its room before its script', () => {
  it('the undefined element takes the upgraded button’s height, and the content below it does not move', async () => {
    const token = fakeTokenUrl().url;
    const { page, win, doc } = await serverRenderedPage(
      CASES.map(
        ({ attributes, label = '' }) => `<div><payroll-link ${attributes} token-url="${token}">${label}</payroll-link></div><p>Below.</p>`,
      ).join('\n'),
      `<style>
        body { font: 16px/1.5 sans-serif; }
        .roomy { --payroll-link-button-padding: 1.1em 2em; font: 21px/1.7 serif; }
        .normal { line-height: normal; }
      </style>`,
    );
    try {
      const elements = [...doc.querySelectorAll('payroll-link')];
      // Each case's figures by its name, so that a failure names the case. The room is the line the element sits
      // on (its box before the script is an inline one, the height of a line of text), the div around it.
      const measure = () =>
        CASES.map(({ name }, i) => ({
          name,
          room: elements[i]!.parentElement!.getBoundingClientRect().height,
          below: elements[i]!.parentElement!.nextElementSibling!.getBoundingClientRect().top,
        }));
      await nextFrames(win);
      expect(
        elements.filter((el) => el.matches(':defined')),
        'undefined at first paint',
      ).to.deep.equal([]);
      const before = measure();

      addElementScript(doc);
      await win.customElements.whenDefined('payroll-link');
      await Promise.all(elements.map((el) => (el as PayrollLink).updateComplete));
      await nextFrames(win);
      const after = measure();

      const button = (el: Element) => el.shadowRoot!.querySelector('button')!.getBoundingClientRect().height;
      expect(
        after.map(({ name, room }) => ({ name, room })),
        'the upgraded element is its button',
      ).to.deep.equal(CASES.map(({ name, attributes }, i) => ({ name, room: attributes === 'hidden' ? 0 : button(elements[i]!) })));
      expect(after[0]!.room, 'a button is there').to.be.above(20);
      const offBy = (key: 'room' | 'below') => CASES.map(({ name }, i) => ({ name, px: Math.abs(before[i]![key] - after[i]![key]) }));
      const allowed = CASES.map(({ name, offBy = 0 }) => ({ name, px: offBy }));
      const within = (seen: { name: string; px: number }[]) =>
        seen.map(({ name, px }, i) => ({ name, px: px <= allowed[i]!.px ? allowed[i]!.px : Math.round(px * 100) / 100 }));
      expect(within(offBy('room')), 'the room held before the script is the button’s').to.deep.equal(allowed);
      expect(within(offBy('below')), 'the content below did not move').to.deep.equal(allowed);
    } finally {
      page.remove();
    }
  });
});
