// The element from this repository's source, loaded in the browser only (the site's pages are also rendered on the server).
import '../../../src/index.js';
