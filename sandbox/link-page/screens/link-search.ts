import { css, html } from 'lit';
import type { SearchResult } from '../../api/link-api-schemas.js';
import type { LinkApi } from '../app/link-api-client.js';
import { LinkScreen } from './link-screen.js';

/** Hits per page; "Load more" asks for the next page. */
const PAGE_SIZE = 8;
/** Typing pauses this long before a search runs, so each keystroke is not a request. */
const TYPING_PAUSE_MS = 250;

/**
 * Search for an employer or a payroll platform in the sandbox catalogue, one
 * page at a time ("Load more" follows the cursor). An empty query lists the
 * popular ones.
 *
 * @summary Employer and platform search of the Link flow.
 */
export class LinkSearch extends LinkScreen {
  static override styles = [
    LinkScreen.styles,
    css`
      ul {
        list-style: none;
        margin: 0;
        padding: 0;
        border: 1px solid var(--link-border);
        border-radius: 10px;
        overflow: hidden;
      }
      li + li {
        border-top: 1px solid var(--link-border);
      }
      .hit {
        display: flex;
        width: 100%;
        justify-content: space-between;
        align-items: center;
        gap: 0.75rem;
        text-align: left;
        border: none;
        border-radius: 0;
        background: var(--link-background);
        color: var(--link-text);
        padding: 0.75rem 0.9rem;
      }
      .hit:hover {
        background: var(--link-surface);
      }
      .hit:focus-visible {
        outline-offset: -3px;
      }
      .name {
        font-weight: 600;
      }
      .kind {
        display: block;
        font-size: 0.82rem;
        color: var(--link-muted);
      }
      .chevron {
        color: var(--link-muted);
      }
      .status {
        margin: 0;
        font-size: 0.85rem;
        color: var(--link-muted);
      }
      .more {
        width: 100%;
      }
    `,
  ];

  static override properties = {
    api: { attribute: false },
    _query: { state: true },
    _items: { state: true },
    _nextCursor: { state: true },
    _loading: { state: true },
    _error: { state: true },
  };

  /** The session's API. */
  declare api: LinkApi | null;
  declare _query: string;
  declare _items: SearchResult[];
  declare _nextCursor: string | null;
  declare _loading: boolean;
  declare _error: string | null;
  /** Called with the employer or platform the user picks. */
  onPick: (item: SearchResult) => void = () => {};

  /** Counts searches, so the answer of an older one never replaces a newer one's. */
  #generation = 0;
  #typingTimer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    this.api = null;
    this._query = '';
    this._items = [];
    this._nextCursor = null;
    this._loading = false;
    this._error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#search(false);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#typingTimer);
    this.#generation++;
  }

  async #search(more: boolean): Promise<void> {
    if (!this.api) return;
    const generation = ++this.#generation;
    this._loading = true;
    this._error = null;
    try {
      const page = await this.api.search(this._query.trim(), more ? this._nextCursor : null, PAGE_SIZE);
      if (generation !== this.#generation) return;
      const firstNew = more ? this._items.length : -1;
      this._items = more ? [...this._items, ...page.data] : page.data;
      this._nextCursor = page.meta.next_cursor;
      this._loading = false;
      // "Load more" may vanish on the last page: focus moves to the first new hit instead of getting lost.
      if (firstNew >= 0) {
        await this.updateComplete;
        this.renderRoot.querySelectorAll<HTMLButtonElement>('.hit')[firstNew]?.focus();
      }
      return;
    } catch {
      if (generation !== this.#generation) return;
      this._error = this.strings.searchFailed;
    }
    this._loading = false;
  }

  #onInput(event: InputEvent): void {
    this._query = (event.target as HTMLInputElement).value;
    clearTimeout(this.#typingTimer);
    this.#typingTimer = setTimeout(() => void this.#search(false), TYPING_PAUSE_MS);
  }

  #onSubmit(event: SubmitEvent): void {
    event.preventDefault();
    clearTimeout(this.#typingTimer);
    void this.#search(false);
  }

  #onMore(): void {
    // aria-disabled rather than disabled: a disabled button would drop the keyboard focus.
    if (!this._loading) void this.#search(true);
  }

  #status(): string {
    const t = this.strings;
    if (this._error) return this._error;
    if (this._loading) return t.searching;
    if (this._items.length === 0) return this._query.trim() ? t.noMatch(this._query.trim()) : t.nothingYet;
    return t.resultCount(this._items.length, this._nextCursor !== null);
  }

  override render() {
    const t = this.strings;
    return html`
      <h1 tabindex="-1">${t.searchHeading}</h1>
      <p class="lead">${t.searchLead}</p>
      <div class="stack">
        <form role="search" @submit=${this.#onSubmit}>
          <div>
            <label for="query">${t.searchLabel}</label>
            <input
              id="query"
              type="text"
              enterkeyhint="search"
              autocomplete="off"
              spellcheck="false"
              .value=${this._query}
              @input=${this.#onInput}
            />
          </div>
        </form>
        <p class="status" role="status">${this.#status()}</p>
        ${
          this._items.length
            ? html`<ul aria-label=${t.searchResultsLabel}>
              ${this._items.map(
                (item) => html`<li>
                  <button
                    type="button"
                    class="hit"
                    data-kind=${item.kind}
                    data-platform-type=${item.platform_type}
                    @click=${() => this.onPick(item)}
                  >
                    <span>
                      <span class="name">${item.name}</span>
                      <span class="kind">${t.kind[item.kind === 'employer' ? 'employer' : item.platform_type]}</span>
                    </span>
                    <span class="chevron" aria-hidden="true">›</span>
                  </button>
                </li>`,
              )}
            </ul>`
            : null
        }
        ${
          this._nextCursor
            ? html`<button type="button" class="secondary more" aria-disabled=${this._loading} @click=${this.#onMore}>
              ${t.loadMore}
            </button>`
            : null
        }
      </div>
    `;
  }
}

if (!customElements.get('link-search')) customElements.define('link-search', LinkSearch);

declare global {
  interface HTMLElementTagNameMap {
    'link-search': LinkSearch;
  }
}
