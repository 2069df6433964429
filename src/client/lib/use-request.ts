// A request the user starts (a form's submit) without the query library's useMutation, for pages a visitor
// opens first, which load none of that library (decision 005): whether it is under way, and what follows it.
import { useState } from 'react';

export function useRequest<Input, Result>(
  send: (input: Input) => Promise<Result>,
  { onSuccess, onError }: { onSuccess(result: Result): void; onError(error: Error): void },
) {
  const [isPending, setPending] = useState(false);
  function mutate(input: Input): void {
    setPending(true);
    send(input)
      .then(onSuccess, (error: unknown) => onError(error instanceof Error ? error : new Error(String(error))))
      .finally(() => setPending(false));
  }
  return { mutate, isPending };
}
