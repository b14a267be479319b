import type { Plugin } from 'esbuild';

export function moduleUrlPlugin(options: { root: string; outfile: string; dist: string }): Plugin;
