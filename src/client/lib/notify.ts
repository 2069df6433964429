// Toasts for the shared messages: a "Title: description" message shows as that title and description.
import { toast } from '@client/components/ui/use-toast';

export function splitMessage(message: string, fallbackTitle: string): { title: string; description?: string } {
  const at = message.indexOf(': ');
  if (at > 0 && at < 40) return { title: message.slice(0, at), description: message.slice(at + 2) };
  return { title: fallbackTitle, description: message };
}

export function notifyError(message: string, fallbackTitle = 'Error'): void {
  toast({ variant: 'destructive', ...splitMessage(message, fallbackTitle) });
}

/** A success toast; a "Title: description" message is split like the errors. */
export function notifySuccess(message: string, description?: string): void {
  if (description !== undefined) toast({ title: message, description });
  else toast(message.includes(': ') ? splitMessage(message, message) : { title: message });
}
