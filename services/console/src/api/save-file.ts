/**
 * Hands a downloaded body to the browser as a file. A plain link cannot carry the session's
 * Authorization header, so the file is fetched first and saved from an object URL, released
 * once the browser has started the save.
 */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The click starts the save asynchronously; revoking in the same task can cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
