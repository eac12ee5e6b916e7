/** Keys whose values are the ids an integrator stores: highlighted in the timeline. */
const ID_KEYS = new Set(['accountId', 'jobId', 'linkTokenId', 'account_id', 'link_token_id', 'job_id']);

/**
 * Appends one entry to the timeline: what fired, from where, and its payload
 * as readable key/value pairs. Built with DOM calls and `textContent` only:
 * payloads come from outside and are never parsed as HTML.
 */
export function addTimelineEntry(list: HTMLOListElement, source: 'event' | 'callback', name: string, detail: unknown): void {
  const item = document.createElement('li');
  item.className = `entry ${source}`;
  item.dataset.source = source;
  item.dataset.name = name;
  item.dataset.detail = JSON.stringify(detail ?? null);

  const head = document.createElement('div');
  head.className = 'entry-head';
  const time = document.createElement('time');
  const now = new Date();
  time.dateTime = now.toISOString();
  time.textContent = now.toLocaleTimeString();
  const badge = document.createElement('span');
  badge.className = 'badge';
  badge.textContent = source;
  const title = document.createElement('strong');
  title.textContent = name;
  head.append(time, badge, title);
  item.append(head);

  if (detail && typeof detail === 'object') {
    const fields = document.createElement('dl');
    for (const [key, value] of Object.entries(detail)) {
      const term = document.createElement('dt');
      term.textContent = key;
      const description = document.createElement('dd');
      const text = typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
      if (ID_KEYS.has(key)) {
        const mark = document.createElement('mark');
        mark.textContent = text;
        description.append(mark);
      } else {
        description.textContent = text;
      }
      fields.append(term, description);
    }
    item.append(fields);
  }
  list.prepend(item);
}
