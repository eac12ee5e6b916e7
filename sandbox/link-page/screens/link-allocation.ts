import { css, html } from 'lit';
import type { Allocation } from '../../api/link-api-schemas.js';
import { LinkScreen } from './link-screen.js';
import { readAllocation } from './read-allocation.js';

type AllocationType = Allocation['type'];

/** The choices, in the order shown; their words are in the page's strings. */
const CHOICES: readonly AllocationType[] = ['remainder', 'amount', 'percentage'];

/**
 * Chooses how much of each paycheck goes to the new account: everything left,
 * a fixed amount, or (where the employer and platform take one) a percentage.
 *
 * @summary Allocation screen of the direct deposit switch.
 */
export class LinkAllocation extends LinkScreen {
  static override styles = [
    LinkScreen.styles,
    css`
      fieldset {
        border: none;
        margin: 0;
        padding: 0;
        display: grid;
        gap: 0.6rem;
      }
      .choice {
        display: flex;
        gap: 0.75rem;
        align-items: flex-start;
        padding: 0.75rem 0.9rem;
        border: 1px solid var(--link-border);
        border-radius: 10px;
        margin: 0;
        font-weight: 400;
        font-size: 1rem;
        cursor: pointer;
      }
      .choice:has(input:checked) {
        border-color: var(--link-accent);
        background: var(--link-accent-soft);
      }
      .choice input {
        margin-top: 0.3rem;
        accent-color: var(--link-accent);
      }
      .choice:has(input:focus-visible) {
        outline: 3px solid var(--link-focus);
        outline-offset: 2px;
      }
      .choice strong {
        display: block;
        font-weight: 600;
      }
      .choice span span {
        display: block;
        font-size: 0.85rem;
        color: var(--link-muted);
      }
      .field-error {
        color: var(--link-danger);
        font-size: 0.85rem;
        margin: 0.35rem 0 0;
      }
    `,
  ];

  static override properties = {
    providerName: { attribute: false },
    allowPercentage: { attribute: false },
    busy: { attribute: false },
    _type: { state: true },
    _value: { state: true },
    _error: { state: true },
  };

  /** The employer or platform the paycheck comes from. */
  declare providerName: string | null;
  /** Offer a percentage: only when the provider takes one, else the service would refuse it after the user chose it. */
  declare allowPercentage: boolean;
  /** The switch is being started. */
  declare busy: boolean;
  declare _type: AllocationType;
  declare _value: string;
  declare _error: string | null;
  /** Called with a valid allocation. */
  onAllocate: (allocation: Allocation) => void = () => {};

  constructor() {
    super();
    this.providerName = null;
    this.allowPercentage = false;
    this.busy = false;
    this._type = 'remainder';
    this._value = '';
    this._error = null;
  }

  #onSubmit(event: SubmitEvent): void {
    event.preventDefault();
    if (this.busy) return;
    const allocation = readAllocation(this._type, this._value, this.strings);
    if (typeof allocation === 'string') {
      this._error = allocation;
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLInputElement>('#value')?.focus());
      return;
    }
    this._error = null;
    this.onAllocate(allocation);
  }

  #choose(type: AllocationType): void {
    this._type = type;
    this._value = '';
    this._error = null;
  }

  #renderValueField() {
    if (this._type === 'remainder') return null;
    const amount = this._type === 'amount';
    return html`<div>
      <label for="value">${amount ? this.strings.amountLabel : this.strings.percentageLabel}</label>
      <input
        id="value"
        type="text"
        inputmode=${amount ? 'decimal' : 'numeric'}
        autocomplete="off"
        placeholder=${amount ? '250.00' : '50'}
        aria-invalid=${this._error !== null}
        aria-describedby="value-error"
        .value=${this._value}
        @input=${(e: InputEvent) => (this._value = (e.target as HTMLInputElement).value)}
      />
      <p id="value-error" class="field-error" role="alert">${this._error ?? ''}</p>
    </div>`;
  }

  override render() {
    const t = this.strings;
    return html`
      <h1 tabindex="-1">${t.allocationHeading}</h1>
      <p class="lead">${t.allocationLead(this.providerName)}</p>
      <form @submit=${this.#onSubmit} novalidate>
        <fieldset>
          <legend class="visually-hidden">${t.allocationLegend}</legend>
          ${CHOICES.filter((type) => type !== 'percentage' || this.allowPercentage).map(
            (type) => html`<label class="choice">
              <input
                type="radio"
                name="allocation"
                value=${type}
                .checked=${this._type === type}
                @change=${() => this.#choose(type)}
              />
              <span><strong>${t.choices[type].label}</strong><span>${t.choices[type].hint}</span></span>
            </label>`,
          )}
        </fieldset>
        ${this.#renderValueField()}
        <button type="submit" class="primary" aria-disabled=${this.busy}>${this.busy ? t.starting : t.switchDeposit}</button>
      </form>
    `;
  }
}

if (!customElements.get('link-allocation')) customElements.define('link-allocation', LinkAllocation);

declare global {
  interface HTMLElementTagNameMap {
    'link-allocation': LinkAllocation;
  }
}
