// Part of `npm run build`: the page's assets into dist/ (local/server/page/copy-page-assets.ts).
import { fileURLToPath } from 'node:url';
import { copyPageAssets } from '../dist/local/server/page/copy-page-assets.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const count = copyPageAssets(`${root}local/server/page/assets`, `${root}dist/local/server/page/assets`);
console.log(`page assets: ${count} files copied to dist/local/server/page/assets`);
