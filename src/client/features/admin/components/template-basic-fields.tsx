// The field blocks shared by the admin template forms: Title / Description / Category / Age Range /
// Duration, and Featured / Premium / Voice only with the price. Each form passes its own choices
// (spec 02 §9: the quick form and the upload form differ) and its own duration rules.
import { TextField } from '@client/components/ui/form-field';
import { CheckboxField, TextAreaField } from '@client/components/ui/form-field';
import { SelectField } from './form-bits';

export type TemplateBasicKey = 'title' | 'description' | 'category' | 'ageRange' | 'duration';

export function TemplateBasicFields(props: {
  values: Record<TemplateBasicKey, string>;
  errors: Record<string, string | undefined>;
  onChange(key: TemplateBasicKey, value: string): void;
  categories: readonly string[];
  ageRanges: readonly string[];
  durationMin: number;
  /** The duration input's step, e.g. 1 for whole seconds. */
  durationStep?: number;
  durationInputMode?: 'numeric';
  durationHint?: string;
}) {
  const { values, errors, onChange } = props;
  return (
    <>
      <TextField label="Title" value={values.title} error={errors.title} onChange={(event) => onChange('title', event.target.value)} />
      <TextAreaField label="Description" value={values.description} error={errors.description} onChange={(value) => onChange('description', value)} />
      <div className="grid gap-4 sm:grid-cols-3">
        <SelectField label="Category" value={values.category} options={props.categories} error={errors.category} onChange={(value) => onChange('category', value)} />
        <SelectField
          label="Age Range"
          value={values.ageRange}
          options={props.ageRanges}
          format={(range) => `${range} years`}
          error={errors.ageRange}
          onChange={(value) => onChange('ageRange', value)}
        />
        <TextField
          label="Duration (seconds)"
          containerClassName="content-start"
          type="number"
          min={props.durationMin}
          step={props.durationStep}
          inputMode={props.durationInputMode}
          value={values.duration}
          error={errors.duration}
          hint={props.durationHint}
          onChange={(event) => onChange('duration', event.target.value)}
        />
      </div>
    </>
  );
}

interface TemplateFlagValues {
  featured: boolean;
  isPremium: boolean;
  voiceOnly: boolean;
  price: string;
}

/** The three flags, and the price (in dollars) while Premium is ticked. */
export function TemplateFlagFields(props: {
  values: TemplateFlagValues;
  errors: Record<string, string | undefined>;
  onChange<K extends keyof TemplateFlagValues>(key: K, value: TemplateFlagValues[K]): void;
  /** What ticking Premium does; by default it only sets isPremium. */
  onPremiumChange?(checked: boolean): void;
}) {
  const { values, errors, onChange } = props;
  return (
    <>
      <div className="flex flex-wrap gap-x-6 gap-y-3">
        <CheckboxField label="Featured" checked={values.featured} onChange={(checked) => onChange('featured', checked)} />
        <CheckboxField
          label="Premium"
          checked={values.isPremium}
          onChange={(checked) => (props.onPremiumChange ? props.onPremiumChange(checked) : onChange('isPremium', checked))}
        />
        <CheckboxField label="Voice only" checked={values.voiceOnly} onChange={(checked) => onChange('voiceOnly', checked)} />
      </div>
      {values.isPremium && (
        <TextField
          label="Price (USD)"
          type="number"
          min={0}
          step={0.01}
          inputMode="decimal"
          value={values.price}
          error={errors.price}
          hint="In dollars, e.g. 4.99"
          onChange={(event) => onChange('price', event.target.value)}
        />
      )}
    </>
  );
}
