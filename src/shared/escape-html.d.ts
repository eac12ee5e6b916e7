/**
 * Text as it may stand in HTML, between tags or inside a quoted attribute: `&`, `<`, `>`, `"` and `'` as
 * entities. For the pages a server writes as a string (the launch page, the sandbox's OAuth login).
 */
export declare const escapeHtml: (text: string) => string;
