import { LitElement, type CSSResultGroup, type PropertyValues } from 'lit';
import { linkScreenStyles } from './link-screen.styles.js';
import { pageStrings, type LinkStrings } from '../app/link-strings.js';
import { mayTakeFocus } from '../app/link-focus.js';

/**
 * The base of every screen of the Link page. A screen renders one `<h1>` with
 * `tabindex="-1"`; when the screen first appears, focus moves to that heading,
 * so keyboard and screen-reader users start at the top of the new screen
 * instead of on a control that no longer exists. Only when the flow may take
 * focus (see link-focus.ts): never from a page whose user did not open it.
 *
 * Focus never falls to `<body>` (WCAG 2.4.3) when an update removes the control
 * that had it (a button that became a status message, the answered leave
 * question, Done once the session exited): it moves to what replaced it, the
 * screen's `[data-focus-fallback]` (a status it shows now, focusable with
 * `tabindex="-1"`), else its heading. Only when focus was inside the screen.
 */
export class LinkScreen extends LitElement {
  static override styles: CSSResultGroup = [linkScreenStyles];

  #focusWasInside = false;

  /** The words in the language the page speaks (its `<html lang>`, set before any screen renders). */
  protected get strings(): Readonly<LinkStrings> {
    return pageStrings();
  }

  /** Moves focus to what the screen shows in place of a control that went: its status message, else its heading. */
  focusFallback(): void {
    (this.renderRoot.querySelector<HTMLElement>('[data-focus-fallback]') ?? this.renderRoot.querySelector<HTMLElement>('h1'))?.focus();
  }

  protected override firstUpdated(): void {
    if (mayTakeFocus()) this.renderRoot.querySelector<HTMLElement>('h1')?.focus();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    this.#focusWasInside = this.shadowRoot?.activeElement != null;
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    if (this.#focusWasInside && this.shadowRoot?.activeElement == null) this.focusFallback();
  }
}
