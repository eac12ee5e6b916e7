import { LitElement, type CSSResultGroup } from 'lit';
import { linkScreenStyles } from './link-screen.styles.js';
import { pageStrings, type LinkStrings } from '../app/link-strings.js';
import { mayTakeFocus } from '../app/link-focus.js';

/**
 * The base of every screen of the Link page. A screen renders one `<h1>` with
 * `tabindex="-1"`; when the screen first appears, focus moves to that heading,
 * so keyboard and screen-reader users start at the top of the new screen
 * instead of on a control that no longer exists. Only when the flow may take
 * focus (see link-focus.ts): never from a page whose user did not open it.
 */
export class LinkScreen extends LitElement {
  static override styles: CSSResultGroup = [linkScreenStyles];

  /** The words in the language the page speaks (its `<html lang>`, set before any screen renders). */
  protected get strings(): Readonly<LinkStrings> {
    return pageStrings();
  }

  protected override firstUpdated(): void {
    if (mayTakeFocus()) this.renderRoot.querySelector<HTMLElement>('h1')?.focus();
  }
}
