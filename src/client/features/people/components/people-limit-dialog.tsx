// Add Person at the plan's limit: the server's own words and the way to a bigger plan, before any form is
// filled in vain (issue 18). The server refuses the same anyway.
import { Crown } from 'lucide-react';
import { Link } from 'wouter';
import { peopleLimitMessage } from '@shared/media-rules';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@client/components/ui/dialog';

interface PeopleLimitDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  planName: string;
  maxPeople: number;
}

export function PeopleLimitDialog({ open, onOpenChange, planName, maxPeople }: PeopleLimitDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Room for more people</DialogTitle>
          <DialogDescription>{peopleLimitMessage(planName, maxPeople)}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
            Not now
          </Button>
          <Button asChild>
            <Link href="/profile#plan">
              <Crown aria-hidden="true" /> Upgrade
            </Link>
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
