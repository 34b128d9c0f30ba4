/** what Vite gives the page's modules: importing a stylesheet adds it to the page */
declare module "*.css" {}
