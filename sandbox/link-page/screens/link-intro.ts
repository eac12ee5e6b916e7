import { css, html } from 'lit';
import { LinkScreen } from './link-screen.js';

/**
 * The first screen: who asks for the connection and what happens next.
 *
 * @summary Intro screen of the Link flow.
 */
export class LinkIntro extends LinkScreen {
  static override styles = [
    LinkScreen.styles,
    css`
      ol {
        margin: 0 0 1.5rem;
        padding: 0;
        list-style: none;
        display: grid;
        gap: 0.75rem;
      }
      li {
        display: flex;
        gap: 0.75rem;
        align-items: baseline;
        line-height: 1.45;
      }
      .step {
        flex: none;
        display: inline-grid;
        place-items: center;
        width: 1.6rem;
        height: 1.6rem;
        border-radius: 50%;
        background: var(--link-accent-soft);
        color: var(--link-accent);
        font-weight: 700;
        font-size: 0.85rem;
      }
      .fine-print {
        font-size: 0.85rem;
        color: var(--link-muted);
        margin-top: 1rem;
      }
    `,
  ];

  static override properties = {
    orgName: { attribute: false },
    depositSwitch: { attribute: false },
  };

  /** The integrator's name, from the Link token. */
  declare orgName: string;
  /** True when the session switches direct deposit (rather than only connecting the account). */
  declare depositSwitch: boolean;
  /** Called when the user continues. */
  onContinue: () => void = () => {};

  constructor() {
    super();
    this.orgName = '';
    this.depositSwitch = false;
  }

  override render() {
    const t = this.strings;
    return html`
      <h1 tabindex="-1">${t.introHeading(this.orgName, this.depositSwitch)}</h1>
      <p class="lead">${t.introLead}</p>
      <ol>
        <li><span class="step" aria-hidden="true">1</span><span>${t.introStepFind}</span></li>
        <li><span class="step" aria-hidden="true">2</span><span>${t.introStepLogIn}</span></li>
        ${this.depositSwitch ? html`<li><span class="step" aria-hidden="true">3</span><span>${t.introStepAllocate}</span></li>` : null}
      </ol>
      <button type="button" class="primary" @click=${() => this.onContinue()}>${t.continue}</button>
      <p class="fine-print">${t.introFinePrint(this.orgName)}</p>
    `;
  }
}

if (!customElements.get('link-intro')) customElements.define('link-intro', LinkIntro);

declare global {
  interface HTMLElementTagNameMap {
    'link-intro': LinkIntro;
  }
}
