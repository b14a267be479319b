export { findFiles } from '../../lib/fs/find-files.js';
