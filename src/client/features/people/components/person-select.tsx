// Choosing one of the user's people (the Create page, the voice-only processor, the upload test).
import { useId } from 'react';
import type { Person } from '@shared/api-types';
import { Label } from '@client/components/ui/label';
import { NativeSelect } from '@client/components/ui/native-select';

interface PersonSelectProps {
  label: string;
  people: Person[];
  value: number | undefined;
  onChange: (personId: number) => void;
  disabled?: boolean;
}

export function PersonSelect({ label, people, value, onChange, disabled }: PersonSelectProps) {
  const id = useId();
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <NativeSelect id={id} value={value ?? ''} disabled={disabled} onChange={(event) => onChange(Number(event.target.value))}>
        {people.map((person) => (
          <option key={person.id} value={person.id}>
            {person.name}
            {person.relationship ? ` (${person.relationship})` : ''}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}
