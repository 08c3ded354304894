"""AudioClassificationDataset: audio files and their labels, as waveforms or as features."""
from ... import tensor as T
from ...io import Dataset
from ..backends import backend
from ..features import MFCC, LogMelSpectrogram, MelSpectrogram, Spectrogram

feat_funcs = {"raw": None, "melspectrogram": MelSpectrogram, "mfcc": MFCC, "logmelspectrogram": LogMelSpectrogram,
              "spectrogram": Spectrogram}


class AudioClassificationDataset(Dataset):
    """(feature, label) per file: the mono waveform ('raw') or a features layer's output for it, made with the
    keyword arguments given (and the file's sample rate)."""

    def __init__(self, files, labels, feat_type="raw", sample_rate=None, **kwargs):
        super().__init__()
        if feat_type not in feat_funcs:
            raise RuntimeError(f"Unknown feat_type: {feat_type}, it must be one in {list(feat_funcs)}")
        self.files, self.labels, self.feat_type = files, labels, feat_type
        self.sample_rate = sample_rate
        self.feat_config = kwargs

    def _convert_to_record(self, idx):
        waveform, self.sample_rate = backend.load(self.files[idx])
        if len(waveform.shape) == 2:
            waveform = waveform.squeeze(0)
        waveform = T.to_tensor(waveform, dtype="float32")
        feat_func = feat_funcs[self.feat_type]
        if feat_func is None:
            return {"feat": waveform, "label": self.labels[idx]}
        config = self.feat_config if self.feat_type == "spectrogram" else {"sr": self.sample_rate, **self.feat_config}
        return {"feat": feat_func(**config)(waveform.unsqueeze(0)).squeeze(0), "label": self.labels[idx]}

    def __getitem__(self, idx):
        record = self._convert_to_record(idx)
        return record["feat"], record["label"]

    def __len__(self):
        return len(self.files)
