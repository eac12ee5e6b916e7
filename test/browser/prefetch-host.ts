import { ReactiveElement } from 'lit';
import type { TokenInput } from '../../src/core/fetch-link-token.js';
import { LinkPrefetch, type LinkPrefetchHost } from '../../src/element/link-prefetch.js';
import type { WidgetStrings } from '../../src/core/strings.js';

/** The smallest host of a {@link LinkPrefetch}: the properties it reads, and nothing of the element's rendering or sessions. */
export class PrefetchHost extends ReactiveElement implements LinkPrefetchHost {
  static override properties = {
    prefetch: {},
    disabled: {},
    open: {},
    linkUrl: {},
    tokenUrl: {},
    endUserId: {},
    accountId: {},
    fetchToken: {},
    strings: {},
  };

  declare prefetch: boolean | 'load';
  declare disabled: boolean;
  declare open: boolean;
  declare linkUrl: string | undefined;
  declare tokenUrl: string | undefined;
  declare endUserId: string | undefined;
  declare accountId: string | undefined;
  declare fetchToken: (() => Promise<TokenInput>) | undefined;
  declare strings: Partial<WidgetStrings> | undefined;
  readonly prefetcher = new LinkPrefetch(this);

  constructor() {
    super();
    this.prefetch = false;
    this.disabled = false;
    this.open = false;
  }
}

if (!customElements.get('prefetch-host')) customElements.define('prefetch-host', PrefetchHost);

/** A connected host with `properties`, after its first update. */
export async function prefetchHost(
  properties: Partial<Pick<PrefetchHost, 'prefetch' | 'linkUrl' | 'tokenUrl' | 'accountId' | 'endUserId'>>,
): Promise<PrefetchHost> {
  const host = document.createElement('prefetch-host') as PrefetchHost;
  Object.assign(host, properties);
  document.body.append(host);
  await host.updateComplete;
  return host;
}
