import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { PreparedLink } from './core/open-link.js';
import { prepareLinkOnLoad } from './load-session.js';

/** A frame built ahead and never opened is torn down this long after the last sign of intent: it holds a page (often a process). */
export const WARM_IDLE_MS = 120_000;

/**
 * Where and how a Link frame is built ahead: the Link page, the open modal of the page its container goes
 * into (if any), and the modal's words in the page's language.
 */
export interface WarmPlace {
  linkUrl: string;
  containerParent: Element | undefined;
  language: string;
  title: string;
  strings: { close: string; loading: string };
}

/**
 * Keeps at most one Link frame built ahead of the click ("Instant open"): the
 * modal closed, its Link page loading or loaded, no token in it. `take()`
 * hands it to the session that opens it; one built for another Link URL or
 * another place is torn down instead (a frame is never moved: moving it
 * reloads it). Torn down with the host, by `discard()` (the token's source
 * changed, prefetch went off) and after {@link WARM_IDLE_MS} without intent.
 */
export class WarmLink implements ReactiveController {
  #warm: { link: PreparedLink; place: WarmPlace; idle: ReturnType<typeof setTimeout> } | null = null;

  constructor(host: ReactiveControllerHost) {
    host.addController(this);
  }

  hostDisconnected(): void {
    this.discard();
  }

  /** Builds the frame for `place` unless one is there already; either way the idle time starts again. */
  warm(place: WarmPlace): void {
    if (this.#warm && !samePlace(this.#warm.place, place)) this.discard();
    if (this.#warm) clearTimeout(this.#warm.idle);
    const link = this.#warm?.link ?? prepareLinkOnLoad({ ...place, fetchTokenAhead: false });
    this.#warm = { link, place, idle: setTimeout(() => this.discard(), WARM_IDLE_MS) };
  }

  /** The frame built ahead for `place`, handed over once; undefined when there is none for it (one for elsewhere is torn down). */
  take(place: WarmPlace): PreparedLink | undefined {
    if (!this.#warm || !samePlace(this.#warm.place, place)) {
      this.discard();
      return undefined;
    }
    const { link, idle } = this.#warm;
    clearTimeout(idle);
    this.#warm = null;
    return link;
  }

  /** Tears down the frame built ahead, if any. */
  discard(): void {
    if (!this.#warm) return;
    const { link, idle } = this.#warm;
    clearTimeout(idle);
    this.#warm = null;
    link.dispose();
  }
}

function samePlace(a: WarmPlace, b: WarmPlace): boolean {
  return (
    a.linkUrl === b.linkUrl &&
    a.containerParent === b.containerParent &&
    a.language === b.language &&
    a.title === b.title &&
    a.strings.close === b.strings.close &&
    a.strings.loading === b.strings.loading
  );
}
