// esbuild's `.css: text` loader turns a stylesheet import into its text.
declare module '*.css' {
  const text: string;
  export default text;
}
