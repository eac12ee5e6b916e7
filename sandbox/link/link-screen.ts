import { LitElement, type CSSResultGroup } from 'lit';
import { linkScreenStyles } from './link-screen.styles.js';

/**
 * The base of every screen of the Link page. A screen renders one `<h1>` with
 * `tabindex="-1"`; when the screen first appears, focus moves to that heading,
 * so keyboard and screen-reader users start at the top of the new screen
 * instead of on a control that no longer exists.
 */
export class LinkScreen extends LitElement {
  static override styles: CSSResultGroup = [linkScreenStyles];

  protected override firstUpdated(): void {
    this.renderRoot.querySelector<HTMLElement>('h1')?.focus();
  }
}
