"""ESC50: 2000 five-second environmental recordings in 50 classes, five folds (ESC-50-master.zip, unpacked)."""
import collections
import os

from ...io.dataset_files import data_home, unpacked_dir
from .dataset import AudioClassificationDataset


class ESC50(AudioClassificationDataset):
    """mode 'train': the folds other than `split`; any other mode: fold `split`. Read from
    ~/.cache/paddle/dataset/ESC-50-master (where Paddle unpacks the archive; paddlelite never downloads)."""

    archive = {"url": "https://paddleaudio.bj.bcebos.com/datasets/ESC-50-master.zip",
               "md5": "7771e4b9d86d0945acce719c7a59305a"}
    label_list = [
        "Dog", "Rooster", "Pig", "Cow", "Frog", "Cat", "Hen", "Insects (flying)", "Sheep", "Crow",  # animals
        "Rain", "Sea waves", "Crackling fire", "Crickets", "Chirping birds", "Water drops", "Wind", "Pouring water",
        "Toilet flush", "Thunderstorm",  # natural soundscapes and water
        "Crying baby", "Sneezing", "Clapping", "Breathing", "Coughing", "Footsteps", "Laughing", "Brushing teeth",
        "Snoring", "Drinking, sipping",  # human, non-speech
        "Door knock", "Mouse click", "Keyboard typing", "Door, wood creaks", "Can opening", "Washing machine",
        "Vacuum cleaner", "Clock alarm", "Clock tick", "Glass breaking",  # interior, domestic
        "Helicopter", "Chainsaw", "Siren", "Car horn", "Engine", "Train", "Church bells", "Airplane", "Fireworks",
        "Hand saw"]  # exterior, urban
    meta = os.path.join("ESC-50-master", "meta", "esc50.csv")
    audio_path = os.path.join("ESC-50-master", "audio")
    meta_info = collections.namedtuple("meta_info", ("filename", "fold", "target", "category", "esc10", "src_file",
                                                     "take"))

    def __init__(self, mode="train", split=1, feat_type="raw", archive=None, **kwargs):
        assert split in range(1, 6), f"The selected split should be integer, and 1 <= split <= 5, but got {split}"
        if archive is not None:
            self.archive = archive
        files, labels = self._get_data(mode, split)
        super().__init__(files=files, labels=labels, feat_type=feat_type, **kwargs)

    def _get_meta_info(self):
        with open(os.path.join(data_home(), self.meta)) as f:
            return [self.meta_info(*line.strip().split(",")) for line in f.readlines()[1:]]

    def _get_data(self, mode, split):
        audio = unpacked_dir(os.path.join(data_home(), self.audio_path), self.archive["url"],
                             "paddle.audio.datasets.ESC50")
        if not os.path.isfile(os.path.join(data_home(), self.meta)):
            unpacked_dir(os.path.join(data_home(), self.meta), self.archive["url"], "paddle.audio.datasets.ESC50")
        files, labels = [], []
        for sample in self._get_meta_info():
            if (int(sample.fold) != split) == (mode == "train"):
                files.append(os.path.join(audio, sample.filename))
                labels.append(int(sample.target))
        return files, labels
